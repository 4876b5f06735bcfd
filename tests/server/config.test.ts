/**
 * The environment is checked against one schema (server/env-schema.ts) by server/config.ts: defaults,
 * coercion, errors that name the variable (and never repeat a secret), and a schema that lists every
 * variable the server reads, documented in docs/environment.md from the schema itself.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../server/config.ts';
import { ENV_VARIABLES } from '../../server/env-schema.ts';
import { ENV_DOC, withTable } from '../../server/env-docs.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the environment schema', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.database).toEqual({ file: resolve('data/portal.db') });
    expect(c.workers).toBe(1);
    expect(c.seed).toBe('demo');
    expect(c.jwtSecret).toBeUndefined();
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
    expect(c.outbox).toEqual({ enabled: true, intervalMs: 2000 });
    expect(c.ops).toEqual({ drainMs: 3000, trustRequestId: false });
  });

  it('reads each value as its type, and an empty value as unset', () => {
    const c = loadConfig({
      PORT: '8080',
      PORTAL_WORKERS: '4',
      PORTAL_OUTBOX: 'off',
      PORTAL_OUTBOX_INTERVAL_MS: '50',
      DATABASE_URL: 'postgres://p@h/db',
      HOST: '',
    });
    expect(c.port).toBe(8080);
    expect(c.workers).toBe(4);
    expect(c.outbox).toEqual({ enabled: false, intervalMs: 50 });
    expect(c.database).toEqual({ url: 'postgres://p@h/db' });
    expect(c.filesDir).toBeNull();
    expect(c.host).toBe('127.0.0.1');
  });

  it('names every wrong variable, what it must be and the value it got', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^PORT must be a port number, not "eighty"$/);
    expect(() => loadConfig({ PORTAL_WORKERS: '65' })).toThrow('PORTAL_WORKERS must be a whole number from 1 to 64, not "65"');
    expect(() => loadConfig({ PORTAL_DRAIN_MS: '1.5' })).toThrow('PORTAL_DRAIN_MS must be a whole number of milliseconds from 0 to 120000, not "1.5"');
    expect(() => loadConfig({ PORTAL_SEED: 'all', PORTAL_TRUST_REQUEST_ID: 'yes' })).toThrow(
      'PORTAL_SEED must be "demo" or "none", not "all"; PORTAL_TRUST_REQUEST_ID must be "on" or "off", not "yes"',
    );
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/^LOG_LEVEL must be one of fatal, .*, not "verbose"$/);
  });

  it('never repeats the value of a secret', () => {
    const attempts: Record<string, string> = {
      DATABASE_URL: 'mysql://portal:hunter2-secret@db/portal',
      JWT_SECRET: 'hunter2-secret',
      SMTP_URL: 'http://u:hunter2-secret@mail',
      PORTAL_METRICS_TOKEN: 'hunter2-secret',
    };
    for (const [name, value] of Object.entries(attempts)) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(`${name} must be ${ENV_VARIABLES[name]!.expected}`);
    }
  });

  it('lists every variable the server and codegen read', () => {
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!['generated', 'dist', 'node_modules'].includes(e.name)) walk(join(dir, e.name));
        } else if (e.name.endsWith('.ts')) for (const m of readFileSync(join(dir, e.name), 'utf8').matchAll(/env\.([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
      }
    };
    walk(join(ROOT, 'server'));
    walk(join(ROOT, 'codegen'));
    expect(read.size).toBeGreaterThan(5);
    expect([...read].filter((name) => !(name in ENV_VARIABLES))).toEqual([]);
  });

  it('is the table of docs/environment.md (npx tsx server/env-docs.ts writes it)', () => {
    const doc = readFileSync(ENV_DOC, 'utf8');
    expect(withTable(doc)).toBe(doc);
    for (const name of Object.keys(ENV_VARIABLES)) expect(doc).toContain(`| \`${name}\` |`);
  });
});
