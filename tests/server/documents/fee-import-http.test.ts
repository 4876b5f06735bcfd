/**
 * The fee-item import over HTTP: the template download, a multipart upload to the collection
 * action (the file checked by the action's upload rule), per-row errors, and nothing written on failure.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../../server/generated/index.ts';
import { feeItemTemplate } from '../../../server/handlers/fee-import.ts';
import { readFirstSheet, type CellValue } from '../../../server/documents/xlsx.ts';
import { serverSuite, bearer, multipart, PDF } from '../helpers.ts';

const t = serverSuite({ staff: 'staff01', sup: 'sup01' });

const row = (over: Record<string, CellValue> = {}): Record<string, CellValue> => ({
  originalPartsCode: '8E0-615-301-A',
  feePartsCode: 'ZX-8E0-615-301',
  consultingFee: 12.5,
  managementRate: 0.05,
  supplierCode: 'S001',
  effectiveDate: '2026-12-01',
  ...over,
});
const count = async () => Number((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM consulting_fee_item'))!.n);
const upload = (token: string, name: string, data: Buffer) => {
  const m = multipart({}, { name, data });
  return t.app.inject({
    method: 'POST',
    url: '/api/consulting-fee-items/actions/import',
    headers: { ...bearer(token), ...m.headers, 'accept-language': 'en-US' },
    payload: m.payload,
  });
};

describe('fee item import over HTTP', () => {
  it("offers the template in the caller's language", async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/consulting-fee-items/actions/import/template',
      headers: { ...bearer(t.tokens.staff), 'accept-language': 'zh-CN' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toMatch(/\.xlsx/);
    const sheet = readFirstSheet(r.rawPayload);
    expect(sheet.rows[0].cells.some((c) => typeof c === 'string' && /[\u4e00-\u9fff]/.test(c))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/consulting-fee-items/actions/import/template', headers: bearer(t.tokens.sup) })).statusCode).toBe(
      403,
    );
  });

  it('imports every row of a valid workbook as to-be-confirmed items', async () => {
    const before = await count();
    const file = feeItemTemplate(metadata, 'zh-CN', [row(), row({ feePartsCode: 'ZX-2' })]).body;
    const r = await upload(t.tokens.staff, '咨询费.xlsx', file);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().result).toEqual({ imported: 2 });
    expect(await count()).toBe(before + 2);
    const last = await t.app.db.get('SELECT state, importer FROM consulting_fee_item ORDER BY id DESC LIMIT 1');
    expect(last).toEqual({ state: '0', importer: '刘强' });
  });

  it('a bad row names its row and field, and nothing is imported', async () => {
    const before = await count();
    const file = feeItemTemplate(metadata, 'en-US', [row({ feePartsCode: 'ZX-3' }), row({ feePartsCode: 'ZX-4', managementRate: 'abc' })]).body;
    const r = await upload(t.tokens.staff, 'fees.xlsx', file);
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('error.importFailed');
    expect(Object.keys(r.json().errors)).toContain('row3.managementRate');
    expect(await count()).toBe(before);
  });

  it("the file is checked by the action's upload rule: type by content, only for allowed profiles", async () => {
    expect((await upload(t.tokens.staff, 'fees.xlsx', PDF)).json().code).toBe('error.fileType');
    expect((await upload(t.tokens.staff, 'fees.pdf', PDF)).json().code).toBe('error.fileType');
    expect((await upload(t.tokens.sup, 'fees.xlsx', feeItemTemplate(metadata, 'en-US', [row()]).body)).statusCode).toBe(403);
  });
});
