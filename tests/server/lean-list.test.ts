/**
 * Lean pages (issue 21): `GET /api/<resource>?screen=<list screen>` answers only the fields that
 * screen needs (codegen/runtime/list-projection.ts), the same rows and values as the full page, for
 * every list screen of the metadata; a screen the caller may not open is refused as its export is.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { listFieldsOf } from '../../codegen/runtime/list-projection.ts';
import { holdsUserId, personNameKey } from '../../codegen/runtime/person-name.ts';
import { bearer, serverSuite } from './helpers.ts';

type Row = Record<string, unknown>;
const USERS = ['sup01', 'staff01', 'supadmin'];
const t = serverSuite(USERS);

const listScreens = metadata.screens.filter((s) => s.kind === 'list' && s.resource);
const entityOfResource = (resource: string) => metadata.entities[metadata.resources[resource]];
const page = (resource: string, token: string, screen?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/${resource}?range=${encodeURIComponent('[0,49]')}&sort=${encodeURIComponent('["id","ASC"]')}${screen !== undefined ? `&screen=${encodeURIComponent(screen)}` : ''}`,
    headers: bearer(token),
  });

describe('a lean page', () => {
  it('is derived from the screen: its columns, what identifies a row and what decides its buttons; never a private field', () => {
    expect(listScreens.length).toBeGreaterThan(10);
    for (const s of listScreens) {
      const e = entityOfResource(s.resource!);
      const fields = listFieldsOf(e, s);
      for (const c of s.columns) expect(fields, `${s.name}: column ${c.field}`).toContain(c.field);
      expect(fields).toContain('id');
      expect(fields).toContain(e.titleField);
      if (e.statusField) expect(fields).toContain(e.statusField);
      for (const a of Object.values(e.actions)) if (a.statusField) expect(fields).toContain(a.statusField);
      for (const f of fields) expect(e.fields[f].private, `${s.name}: ${f}`).toBe(false);
    }
    // the order search shows 18 of the order's fields: its page carries far fewer than all
    const os = listScreens.find((s) => s.name === 'orderSearch')!;
    const order = entityOfResource(os.resource!);
    const visible = order.fieldOrder.filter((n) => !order.fields[n].private);
    expect(listFieldsOf(order, os).length).toBeLessThan(visible.length * 0.8);
  });

  it("answers, on every list screen, the rows and values of the full page for just the screen's fields", async () => {
    let checked = 0;
    for (const s of listScreens) {
      const e = entityOfResource(s.resource!);
      const fields = listFieldsOf(e, s);
      // the first of the demo accounts that may open the screen
      let lean: Awaited<ReturnType<typeof page>> | undefined;
      let user = '';
      for (const u of USERS) {
        const r = await page(s.resource!, t.tokens[u], s.name);
        if (r.statusCode === 200) {
          lean = r;
          user = u;
          break;
        }
        expect(r.statusCode, `${s.name} as ${u}: ${r.body}`).toBe(403);
      }
      if (!lean) continue;
      const full = await page(s.resource!, t.tokens[user]);
      expect(full.statusCode).toBe(200);
      expect(lean.headers['content-range']).toBe(full.headers['content-range']);
      const fullRows = full.json() as Row[];
      const leanRows = lean.json() as Row[];
      expect(leanRows.length, s.name).toBe(fullRows.length);
      // after the fields, the names of the people whose user IDs they hold (engine/person-names.ts)
      const keys = [...fields, ...e.fieldOrder.filter((n) => fields.includes(n) && holdsUserId(e.fields[n])).map(personNameKey)];
      leanRows.forEach((row, i) => {
        expect(Object.keys(row), s.name).toEqual(keys);
        expect(row, s.name).toEqual(Object.fromEntries(keys.map((f) => [f, fullRows[i][f]])));
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(listScreens.length * 0.8);
  });

  it('is refused for a screen the caller may not open, one of another resource or none at all', async () => {
    // a screen for other roles than a supplier's (role user)
    const internal = listScreens.find((s) => s.roles.length && !s.roles.includes('user') && !s.claimWarehouseOnly);
    expect(internal).toBeDefined();
    const refused = await page(internal!.resource!, t.tokens.sup01, internal!.name);
    expect(refused.statusCode).toBe(403);
    const orderScreen = listScreens.find((s) => s.resource === 'orders')!;
    expect((await page('notices', t.tokens.staff01, orderScreen.name)).statusCode).toBe(404);
    expect((await page('orders', t.tokens.staff01, 'noSuchScreen')).statusCode).toBe(404);
    expect((await page('orders', t.tokens.staff01, '__proto__')).statusCode).toBe(404);
    // an empty screen is no screen: the full page
    const all = await page('orders', t.tokens.staff01, '');
    expect(all.statusCode).toBe(200);
    const order = entityOfResource('orders');
    const visible = order.fieldOrder.filter((n) => !order.fields[n].private);
    expect(Object.keys((all.json() as Row[])[0])).toEqual([...visible, ...visible.filter((n) => holdsUserId(order.fields[n])).map(personNameKey)]);
  });
});
