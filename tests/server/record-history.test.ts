/**
 * A record's history (GET /api/history/<resource>/<id>): both edits of a record, newest first,
 * with field labels and code values in the caller's language; an action by its label; scoped like
 * the record (another supplier: 404, as for the record itself); private fields never; files added
 * and removed under the record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../codegen/runtime/history.ts';
import { bearer, build, code, listUrl, login, multipart, PDF, type TestApp } from './helpers.ts';

let t: TestApp;
let sup01: string;
let sup02: string;
let staff: string;
let supadmin: string;

beforeAll(async () => {
  t = await build();
  sup01 = await login(t.app, 'sup01');
  sup02 = await login(t.app, 'sup02');
  staff = await login(t.app, 'staff01');
  supadmin = await login(t.app, 'supadmin');
});
afterAll(() => t.close());

type Entry = HistoryEntry;
const history = async (resource: string, id: number, token: string, lang = 'en-US') =>
  t.app.inject({ method: 'GET', url: `/api/history/${resource}/${id}`, headers: { ...bearer(token), 'accept-language': lang } });

describe('record history', () => {
  let adjustment: Record<string, unknown>;

  it('a record edited twice shows both changes, newest first, with translated labels and code values', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: listUrl('stock-adjustments', { filter: { status: code('stockAdjustStatus', 'unsubmitted') }, range: [0, 0] }),
      headers: bearer(sup01),
    });
    adjustment = list.json()[0];
    const first = await t.app.inject({
      method: 'PUT',
      url: `/api/stock-adjustments/${adjustment.id}`,
      headers: bearer(sup01),
      payload: { ...adjustment, adjustType: code('adjustType', adjustment.adjustType === '1' ? 'scrap' : 'claim') },
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await t.app.inject({
      method: 'PUT',
      url: `/api/stock-adjustments/${adjustment.id}`,
      headers: bearer(sup01),
      payload: { ...(first.json() as Record<string, unknown>), adjustQty: Number(adjustment.adjustQty) + 1 },
    });
    expect(second.statusCode, second.body).toBe(200);

    const en = await history('stock-adjustments', Number(adjustment.id), sup01);
    expect(en.statusCode).toBe(200);
    const entries = en.json() as Entry[];
    expect(entries.map((e) => e.operation).slice(0, 2)).toEqual(['update', 'update']);
    expect(entries[0]).toMatchObject({ userId: 'sup01', operationLabel: 'Edited' });
    expect(entries[0].changes).toEqual([
      { field: 'adjustQty', label: 'Adjust qty', before: String(adjustment.adjustQty), after: String(Number(adjustment.adjustQty) + 1) },
    ]);
    const typeChange = entries[1].changes.find((c) => c.field === 'adjustType')!;
    const labels = { '0': 'Adjust account', '1': 'Claim', '2': 'Scrap' } as Record<string, string>;
    expect(typeChange).toEqual({
      field: 'adjustType',
      label: 'Adjust type',
      before: labels[String(adjustment.adjustType)],
      after: labels[String(first.json().adjustType)],
    });
    // no bookkeeping fields (version, updated at / by)
    expect(entries.flatMap((e) => e.changes.map((c) => c.field))).not.toContain('version');

    const zh = (await history('stock-adjustments', Number(adjustment.id), sup01, 'zh-CN')).json() as Entry[];
    expect(zh[0].operationLabel).toBe('编辑');
    expect(zh[1].changes.find((c) => c.field === 'adjustType')!.label).toBe('调整类型');
  });

  it('another supplier gets 404, as for the record; internal staff who read it see the same history', async () => {
    expect((await history('stock-adjustments', Number(adjustment.id), sup02)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/stock-adjustments/${adjustment.id}`, headers: bearer(sup02) })).statusCode).toBe(404);
    const s = await history('stock-adjustments', Number(adjustment.id), staff);
    expect(s.statusCode).toBe(200);
    expect((s.json() as Entry[]).length).toBeGreaterThanOrEqual(2);
    expect((await history('stock-adjustments', 99999999, sup01)).statusCode).toBe(404);
    expect((await history('nothing-here', 1, sup01)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/history/stock-adjustments/${adjustment.id}` })).statusCode).toBe(401);
  });

  it('an action shows by its label; a private field never shows', async () => {
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/stock-adjustments/${adjustment.id}/actions/submit`,
      headers: bearer(sup01),
      payload: {},
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const entries = (await history('stock-adjustments', Number(adjustment.id), sup01)).json() as Entry[];
    expect(entries[0]).toMatchObject({ operation: 'action:submit', operationLabel: 'Submit' });
    expect(entries[0].changes.find((c) => c.field === 'status')).toMatchObject({ before: 'Unsubmitted', after: 'Unaudited' });

    // an account's password hash is private: its history never names it
    const acc = (await t.app.inject({ method: 'GET', url: listUrl('accounts', { filter: { userId: 'sup02' } }), headers: bearer(staff) })).json()[0];
    const reset = await t.app.inject({ method: 'POST', url: `/api/accounts/${acc.id}/actions/resetPassword`, headers: bearer(staff), payload: {} });
    expect(reset.statusCode, reset.body).toBe(200);
    const accHistory = (await history('accounts', Number(acc.id), staff)).json() as Entry[];
    expect(accHistory.length).toBeGreaterThan(0);
    expect(JSON.stringify(accHistory)).not.toMatch(/passwordHash|\*\*\*/);
  });

  it('files added to and removed from a record are in its history', async () => {
    const notice = await t.app.inject({ method: 'POST', url: '/api/notices', headers: bearer(supadmin), payload: { title: 'history files', content: 'c' } });
    expect(notice.statusCode).toBe(201);
    const id = notice.json().id;
    const form = multipart({ noticeId: String(id) }, { name: 'plan.pdf', data: PDF, type: 'application/pdf' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/notice-attachments/upload',
      headers: { ...bearer(supadmin), ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/notice-attachments/${up.json().id}`, headers: bearer(supadmin) });
    expect(del.statusCode, del.body).toBe(200);
    const entries = (await history('notices', id, supadmin)).json() as Entry[];
    expect(
      entries
        .filter((e) => e.fileName === 'plan.pdf')
        .map((e) => [e.operation, e.operationLabel])
        .sort(),
    ).toEqual([
      ['fileAdded', 'File added'],
      ['fileRemoved', 'File removed'],
    ]);
    expect(entries.at(-1)!.operation).toBe('create');
  });
});
