/**
 * Issue 20 point 3: a supplier code a user types names a supplier of the supplier master (metadata
 * lookups on consultingFeeItem.supplierCode and, for supplier accounts, account.departmentId),
 * whichever way it comes in: the generic create and update (the form, the API), the fee import
 * (validateRecord) and the account registration (an action input). An unknown code (S999) is a
 * field error naming it, in the caller's language, and nothing is written; known codes pass, and
 * an internal account's department is not a supplier code at all (the lookup's `when`).
 */
import { describe, expect, it } from 'vitest';
import { messages } from '../../server/generated/index.ts';
import { DEMO_SUPPLIERS } from '../../server/seed/base.ts';
import { serverSuite, bearer, code, importFeeRows } from './helpers.ts';

const t = serverSuite({ staff: 'staff01', sup: 'sup01' });

const KEY = 'validation.unknownSupplier';
const UNKNOWN = 'S999';
const count = async (table: string) => Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
const send = (method: 'POST' | 'PUT', url: string, payload: unknown, token = t.tokens.staff, lang?: string) => t.request(method, url, token, payload, lang);
let n = 0;
const feeItem = (over: Record<string, string | number> = {}) => ({
  originalPartsCode: `SR-${++n}`,
  feePartsCode: `SR-F-${n}`,
  consultingFee: 10,
  managementRate: 0.05,
  supplierCode: 'S001',
  effectiveDate: '2027-03-01',
  ...over,
});
const account = (over: Record<string, unknown> = {}) => ({
  userId: `supref${++n}`,
  name: `Supplier ref ${n}`,
  accountType: code('accountType', 'supplier'),
  departmentId: UNKNOWN,
  departmentName: 'Nobody Ltd',
  email: `supref${n}@example.com`,
  language: 'en-US',
  ...over,
});

describe('the supplier master', () => {
  it('holds the demo suppliers; a supplier reads only its own row', async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/suppliers', headers: bearer(t.tokens.staff) });
    expect(all.statusCode).toBe(200);
    expect(all.json().map((r: { supplierCode: string }) => r.supplierCode)).toEqual(DEMO_SUPPLIERS.map((s) => s.code));
    const own = await t.app.inject({ method: 'GET', url: '/api/suppliers', headers: bearer(t.tokens.sup) });
    expect(own.json().map((r: { supplierCode: string }) => r.supplierCode)).toEqual(['S001']);
  });

  it('the message names the code in both languages', () => {
    expect(messages['en-US'][KEY]).toContain('%{value}');
    expect(messages['zh-CN'][KEY]).toContain('%{value}');
  });
});

describe('fee items name an existing supplier', () => {
  it('create (form and API): an unknown supplier is a field error naming it, nothing written', async () => {
    const before = await count('consulting_fee_item');
    const r = await send('POST', '/api/consulting-fee-items', feeItem({ supplierCode: UNKNOWN }));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.validation', errors: { supplierCode: KEY }, errorArgs: { supplierCode: { value: UNKNOWN } } });
    expect(await count('consulting_fee_item')).toBe(before);
    const zh = await send('POST', '/api/consulting-fee-items', feeItem({ supplierCode: UNKNOWN }), t.tokens.staff, 'zh-CN');
    expect(zh.json().message).toBe(messages['zh-CN']['error.validation']);
    const ok = await send('POST', '/api/consulting-fee-items', feeItem({ supplierCode: 'S002' }));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('update: moving an item to an unknown supplier is refused', async () => {
    const created = (await send('POST', '/api/consulting-fee-items', feeItem())).json();
    const r = await send('PUT', `/api/consulting-fee-items/${created.id}`, { supplierCode: UNKNOWN, version: created.version });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ supplierCode: KEY });
    const ok = await send('PUT', `/api/consulting-fee-items/${created.id}`, { supplierCode: 'S002', version: created.version });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('import: the row of an unknown supplier is reported by row and field, and nothing is imported', async () => {
    const before = await count('consulting_fee_item');
    const rows = [feeItem(), feeItem({ supplierCode: UNKNOWN })];
    const r = await importFeeRows(t.app, t.tokens.staff, rows);
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.importFailed', errors: { 'row3.supplierCode': KEY } });
    expect(Object.keys(r.json().errors)).toEqual(['row3.supplierCode']);
    expect(r.json().message).toContain(UNKNOWN);
    expect(await count('consulting_fee_item')).toBe(before);
  });
});

describe('account registration names an existing supplier for a supplier account', () => {
  it('an unknown supplier code is refused, nothing written, no mail queued', async () => {
    const [accounts, mails] = [await count('account'), await count('_mail_queue')];
    const r = await send('POST', '/api/accounts/actions/register', account());
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.validation', errors: { departmentId: KEY }, errorArgs: { departmentId: { value: UNKNOWN } } });
    expect([await count('account'), await count('_mail_queue')]).toEqual([accounts, mails]);
  });

  it('a known supplier code registers; an internal account keeps its own department', async () => {
    const r = await send('POST', '/api/accounts/actions/register', account({ departmentId: 'S001' }));
    expect(r.statusCode, r.body).toBe(200);
    const internal = await send('POST', '/api/accounts/actions/register', account({ accountType: code('accountType', 'internal'), departmentId: 'PD99' }));
    expect(internal.statusCode, internal.body).toBe(200);
  });
});
