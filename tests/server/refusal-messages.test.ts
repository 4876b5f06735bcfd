/**
 * Issue 20 point 5: refusals that name the real reason, in both languages. An upload refused by
 * its file rule names the allowed types and the name's length limit; a hazardous-chemicals receipt
 * that is already confirmed refuses another confirmation and a new document by saying it is
 * confirmed (not "upload the document first", not an internal step's name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { metadata } from '../../server/generated/index.ts';
import { translate } from '../../server/engine/i18n.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { codeLabelKey, LOCALES } from '../../codegen/runtime/model.ts';
import { bearer, build, code, login, multipart, PDF, type TestApp } from './helpers.ts';

let t: TestApp;
let sup: string;
const PNG = readFileSync('server/seed/assets/label-detail.png');

beforeAll(async () => {
  t = await build();
  sup = await login(t.app, 'sup01');
});
afterAll(() => t.close());

const upload = (resource: string, fields: Record<string, string>, name: string, data: Buffer, lang: string) => {
  const m = multipart(fields, { name, data });
  return t.app.inject({
    method: 'POST',
    url: `/api/${resource}/upload`,
    headers: { ...bearer(sup), ...m.headers, 'accept-language': lang },
    payload: m.payload,
  });
};
const post = (url: string, lang: string) => t.app.inject({ method: 'POST', url, headers: { ...bearer(sup), 'accept-language': lang }, payload: {} });

describe('an upload refused by its file rule names what the rule allows', () => {
  for (const lang of LOCALES) {
    it(`claim evidence: JPG, PNG and 50 characters (${lang})`, async () => {
      const claim = await t.app.db.get<{ id: number }>(`SELECT id FROM claim WHERE supplier_code = 'S001' AND logistics_status = ? ORDER BY id LIMIT 1`, [
        code('logisticsConfirmStatus', 'wait'),
      ]);
      const fields = { claimId: String(claim!.id) };
      const type = await upload('claim-attachments', fields, 'report.pdf', PDF, lang);
      expect(type.json()).toMatchObject({ code: 'error.fileType', message: translate(lang, 'error.fileType', { types: 'JPG, PNG' }) });
      expect(type.json().message).toContain('JPG, PNG');
      const long = await upload('claim-attachments', fields, `${'照'.repeat(47)}.png`, PNG, lang);
      expect(long.json()).toMatchObject({ code: 'error.fileNameTooLong', message: translate(lang, 'error.fileNameTooLong', { max: 50 }) });
      expect(long.json().message).toContain('50');
    });
  }
});

describe('a confirmed hazardous-chemicals receipt says it is confirmed', () => {
  for (const lang of LOCALES) {
    it(`to another confirmation and to a new document (${lang})`, async () => {
      const id = await RowWriter.write(t.app.db, metadata, (w) =>
        w.insert('hazardReceipt', {
          receiptNo: `WH20261120${lang === 'en-US' ? '01' : '02'}`,
          supplierCode: 'S001',
          partsCode: 'HZ-01',
          partsName: '制动液',
          qty: 20,
          status: code('hazardReceiptStatus', 'pending'),
        }),
      );
      // before the document: the receipt's own message
      expect((await post(`/api/hazard-receipts/${id}/actions/confirm`, lang)).json()).toMatchObject({
        code: 'error.documentRequired',
        message: translate(lang, 'error.documentRequired'),
      });
      expect((await upload('hazard-receipt-documents', { hazardReceiptId: String(id) }, 'receipt.pdf', PDF, lang)).statusCode).toBe(201);
      expect((await post(`/api/hazard-receipts/${id}/actions/confirm`, lang)).statusCode).toBe(200);

      const confirmed = translate(lang, codeLabelKey('hazardReceiptStatus', code('hazardReceiptStatus', 'confirmed')));
      const again = (await post(`/api/hazard-receipts/${id}/actions/confirm`, lang)).json();
      expect(again.code).toBe('error.illegalTransition');
      expect(again.message).toContain(confirmed);
      expect(again.message).not.toBe(translate(lang, 'error.documentRequired'));

      const late = await upload('hazard-receipt-documents', { hazardReceiptId: String(id) }, 'receipt2.pdf', PDF, lang);
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toContain(confirmed);
      // no internal step's name (the engine-only action that marks a receipt uploaded)
      expect(late.json().message).not.toContain(translate(lang, metadata.entities.hazardReceipt.actions.markUploaded.labelKey));
    });
  }
});
