/**
 * Strict bodies everywhere (issue 25 point 6): every route whose body has a schema refuses a wrong
 * type in each of its fields with 400 before any handler runs, the public ones (login, password
 * reset) above all: `{"token": ["..."]}` is not a token and `{"username": 123}` not a user ID. The
 * routes come from the app itself, so a route added tomorrow is covered. Both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from './helpers.ts';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; minLength?: number; enum?: unknown[] };
let t: TestApp;
let address = 0;

beforeAll(async () => {
  t = await build({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

/** A value of the field's own type (so that only the field under test is wrong). */
function sample(s: Schema): unknown {
  if (s.enum) return s.enum[0];
  const types = [s.type ?? 'string'].flat();
  if (types.includes('string')) return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  if (types.includes('integer') || types.includes('number')) return 1;
  if (types.includes('boolean')) return true;
  if (types.includes('object')) return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties?.[k] ?? {})]));
  if (types.includes('array')) return [];
  return null;
}

/** Values of other JSON types than the field accepts: what coercion used to let through. */
function wrongValues(s: Schema): unknown[] {
  const types = [s.type ?? 'string'].flat();
  const candidates: [string, unknown][] = [
    ['string', 'x'],
    ['number', 7],
    ['boolean', true],
    ['array', [sample(s)]],
    ['object', { x: 1 }],
  ];
  return candidates.filter(([type]) => !types.includes(type) && !(type === 'number' && types.includes('integer'))).map(([, v]) => v);
}

const send = (method: string, url: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: method as 'POST',
    url: url.replace(/:[A-Za-z]+/g, '1'),
    payload,
    // a new address per call: the per-address limits of the public routes stay out of the way
    remoteAddress: `10.9.${(++address >> 8) & 255}.${address & 255}`,
    headers: { 'accept-language': 'en-US' },
  });
/** refused by the body's schema: 400 error.badRequest from the error handler (not a route's own answer) */
const schemaRefusal = (r: { statusCode: number; json: () => Record<string, unknown> }) =>
  r.statusCode === 400 && r.json().code === 'error.badRequest' && !('error' in r.json());

describe('bodies with exact types', () => {
  it('every field of every route with a body schema refuses a value of another type with 400', async () => {
    const routes = t.app.registeredRoutes.filter((r) => (r.schema?.body as Schema | undefined)?.properties);
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    // the public routes are among them
    for (const u of ['POST /connect/token', 'POST /api/auth/forgot', 'POST /api/auth/reset/check', 'POST /api/auth/reset']) expect(urls).toContain(u);
    const accepted: string[] = [];
    for (const r of routes) {
      const props = (r.schema!.body as Schema).properties!;
      const base = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, sample(s)]));
      if (r.url === '/connect/token') Object.assign(base, { grant_type: 'password', password: 'long-enough-1', warehouse: 'PDC01' });
      // the right types pass the schema (the route answers whatever it answers)
      expect(schemaRefusal(await send(r.method, r.url, base)), `${r.method} ${r.url} with the right types`).toBe(false);
      for (const [field, s] of Object.entries(props))
        for (const wrong of wrongValues(s)) {
          const res = await send(r.method, r.url, { ...base, [field]: wrong });
          if (!schemaRefusal(res)) accepted.push(`${r.method} ${r.url} ${field}=${JSON.stringify(wrong)} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
        }
    }
    expect(accepted).toEqual([]);
  });

  it('the reset-link check refuses a token in an array; the login a user ID as a number', async () => {
    const check = await send('POST', '/api/auth/reset/check', { token: ['abc'] });
    expect(check.statusCode).toBe(400);
    expect(check.json().code).toBe('error.badRequest');
    const login = await send('POST', '/connect/token', { grant_type: 'password', username: 123, password: 'long-enough-1', warehouse: 'PDC01' });
    expect(schemaRefusal(login)).toBe(true);
  });
});
