/**
 * A start that cannot succeed ends with one paragraph that says what to do, exit code 1 and no
 * stack: a bad setting, metadata that does not parse or is newer than the generated files, a
 * migration the database refuses, a port in use (one process and a cluster of two). The real
 * server/main.ts under tsx, on the backend under test (helpers.ts), in temporary folders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDb } from '../../server/db/open.ts';
import { migrate } from '../../server/db/migrate.ts';
import { tables as allTables } from '../../server/generated/index.ts';
import type { TableDef } from '../../codegen/runtime/dialect.ts';
import { BACKEND, testDatabase } from './helpers.ts';
import { scaled } from '../support/waits.ts';
import { runToEnd, type RunResult } from '../support/project-copy.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string;
const drops: (() => Promise<void>)[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'startup-'));
});
afterAll(async () => {
  for (const d of drops) await d();
  rmSync(dir, { recursive: true, force: true });
});

/** A database of its own: the SQLite file or PostgreSQL URL in the server's environment. */
async function database(): Promise<Record<string, string>> {
  const t = await testDatabase(mkdtempSync(join(dir, 'db-')));
  drops.push(t.drop);
  return t.options.databaseUrl ? { DATABASE_URL: t.options.databaseUrl } : { PORTAL_DB: t.options.dbFile! };
}

/** Runs server/main.ts of `root` until it ends (it should: every case here is a failed start). */
function start(env: Record<string, string>, root = ROOT): Promise<RunResult> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['JWT_SECRET', 'DATABASE_URL', 'PORTAL_DB', 'PORTAL_WORKERS', 'PORTAL_SEED', 'PORT', 'HOST', 'LOG_LEVEL', 'PG_POOL_MAX']) delete base[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...base, HOST: '127.0.0.1', PORT: '0', PORTAL_SEED: 'none', LOG_LEVEL: 'warn', JWT_SECRET: 'startup-test-secret-0123456789-0123456789', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return runToEnd(child, scaled(90_000), 'exit');
}

/** The one paragraph: text, no stack frames, no driver dump. */
function expectParagraph(stderr: string, text: RegExp): void {
  expect(stderr).toMatch(text);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/SqliteError|node:internal|\.ts:\d+:\d+/);
}

describe('a start that cannot succeed', () => {
  it('a bad setting: the setting, its value and where the settings are explained', async () => {
    const r = await start({ PORT: 'eighty' });
    expect(r.code).toBe(1);
    expectParagraph(r.stderr, /^\nPORT must be a port number, not "eighty" \(docs\/environment\.md lists the settings\)\.\n\n$/);
  });

  it('a refused migration: the table, entity, field, file and the migration that would allow it', async () => {
    const env = await database();
    // an older database: consulting fee items without the required management rate, and a row
    const db = await openDb(env.DATABASE_URL ? { url: env.DATABASE_URL } : { file: env.PORTAL_DB });
    const old = structuredClone(allTables[BACKEND]) as TableDef[];
    const fee = old.find((t) => t.name === 'consulting_fee_item')!;
    fee.columns = fee.columns.filter((c) => c.name !== 'management_rate');
    await migrate(db, old);
    await db.run(
      `INSERT INTO consulting_fee_item (original_parts_code, fee_parts_code, consulting_fee, supplier_code, effective_date, version) VALUES ('P', 'F', 1, 'S001', '2026-01-01', 1)`,
    );
    await db.close();
    const r = await start(env);
    expect(r.code).toBe(1);
    expectParagraph(
      r.stderr,
      /The database cannot follow the metadata without losing data or leaving required values empty:\n {2}- table "consulting_fee_item" \(entity "consultingFeeItem", field "managementRate", metadata\/entities\/consulting-fee-item.json\): the new field "managementRate" is required and has no default/,
    );
    expect(r.stderr).toMatch(/"op":"addColumn","table":"consulting_fee_item","column":"management_rate"/);
    expect(r.stderr).toMatch(/Nothing was changed\.\n\n$/);
  });

  describe('a port in use', () => {
    let blocker: Server;
    let port = 0;
    beforeAll(async () => {
      blocker = createServer();
      await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
      port = (blocker.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((ok) => blocker.close(() => ok())));

    it('one process: the port, the address and what to do', async () => {
      const r = await start({ ...(await database()), PORT: String(port) });
      expect(r.code).toBe(1);
      expectParagraph(
        r.stderr,
        new RegExp(
          `^\\nPort ${port} on 127\\.0\\.0\\.1 is already in use \\(another portal, or another program, listens there\\)\\. Stop it, or set PORT to a free port, then start again\\.\\n\\n$`,
        ),
      );
    });

    it('a cluster: said once, and the primary stops instead of starting workers again and again', async () => {
      const r = await start({ ...(await database()), PORT: String(port), PORTAL_WORKERS: '2' });
      expect(r.code).toBe(1);
      expect(r.stderr.match(/is already in use/g)).toHaveLength(1);
      expect(r.stdout).not.toMatch(/starting another/);
    });
  });

  describe('metadata (a copy of the project, broken in one place)', () => {
    let copy: string;
    beforeAll(() => {
      copy = mkdtempSync(join(dir, 'project-'));
      for (const d of ['server', 'codegen', 'metadata'])
        cpSync(join(ROOT, d), join(copy, d), { recursive: true, filter: (src) => !src.includes(`${join('server', 'dist')}`) });
      for (const f of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(copy, f));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    });
    const file = (rel: string) => join(copy, rel);

    it('a file that is not JSON: file, line and column', async () => {
      const p = file('metadata/screens/notice-list.json');
      const text = readFileSync(p, 'utf8');
      writeFileSync(p, text.replace('"noticeList",', '"noticeList"'));
      try {
        const r = await start(await database(), copy);
        expect(r.code).toBe(1);
        expectParagraph(
          r.stderr,
          /^\nThe metadata cannot be read:\n {2}- metadata\/screens\/notice-list.json:3:24: not valid JSON: expected "," or "}" after a property value, found "\\""\nFix these files, run npm run codegen, then start again\.\n\n$/,
        );
      } finally {
        writeFileSync(p, text);
      }
    });

    it('metadata changed since codegen ran: run codegen (which names every problem)', async () => {
      const p = file('metadata/entities/notice.json');
      const text = readFileSync(p, 'utf8');
      writeFileSync(p, text.replace('"name": "notice"', '"name": "notice", "description": "edited"'));
      try {
        const r = await start(await database(), copy);
        expect(r.code).toBe(1);
        expectParagraph(
          r.stderr,
          /^\nThe metadata changed since the generated files were written \(server\/generated\/ is out of date\)\. Run npm run codegen/,
        );
      } finally {
        writeFileSync(p, text);
      }
    });

    it('generated files missing', async () => {
      rmSync(file('server/generated'), { recursive: true, force: true });
      const r = await start(await database(), copy);
      expect(r.code).toBe(1);
      expectParagraph(r.stderr, /^\nThe generated files are missing \(server\/generated\/\)\. Run npm run codegen/);
    });
  });
});
