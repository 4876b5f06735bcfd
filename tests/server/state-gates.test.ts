/**
 * State gates (issue 9 point 15): a soft-deleted (discarded) notice is read-only, and so are its
 * attachments; the decisions that send something back take a reason: "reject rejection" of a
 * settlement, the supplier's rejection of fee items, the return of a stock adjustment. (The
 * frozen document of a confirmed hazardous-chemicals receipt: business-actions.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { bearer, build, loginAll, code, multipart, PDF, type TestApp } from './helpers.ts';

let t: TestApp;
let [admin, sup, staff] = ['', '', ''];
beforeAll(async () => {
  t = await build({ scale: 0 });
  [admin, sup, staff] = await loginAll(t.app, ['supadmin', 'sup01', 'staff01']);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, tok: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { ...bearer(tok), 'accept-language': 'en-US' }, ...(payload !== undefined ? { payload: payload as object } : {}) });
const uploadTo = (noticeId: number, name: string) => {
  const m = multipart({ noticeId: String(noticeId) }, { name, data: PDF });
  return t.app.inject({
    method: 'POST',
    url: '/api/notice-attachments/upload?overwrite=true',
    headers: { ...bearer(admin), ...m.headers },
    payload: m.payload,
  });
};
const insert = (entity: string, values: Record<string, unknown>) => RowWriter.write(t.app.db, metadata, (w) => w.insert(entity, values));

describe('a discarded notice is read-only', () => {
  it('can be read, but not edited, activated, repealed or deleted again; its attachments neither change', async () => {
    const n = (await call('POST', '/api/notices', admin, { title: `废弃后只读 ${Date.now()}`, content: '内容' })).json();
    const att = (await uploadTo(n.id, 'keep.pdf')).json();
    expect((await call('POST', `/api/notices/${n.id}/actions/repeal`, admin, {})).statusCode).toBe(200);
    expect((await call('DELETE', `/api/notices/${n.id}`, admin)).statusCode).toBe(200);
    const current = await call('GET', `/api/notices/${n.id}`, admin);
    expect(current.statusCode).toBe(200);
    expect(current.json().deleted).toBe(true);
    const attempts = [
      await call('PUT', `/api/notices/${n.id}`, admin, { ...(current.json() as Record<string, unknown>), content: '改了' }),
      await call('POST', `/api/notices/${n.id}/actions/activate`, admin, {}),
      await call('POST', '/api/notices/actions/activate', admin, { ids: [n.id] }),
      await call('DELETE', `/api/notices/${n.id}`, admin),
      await uploadTo(n.id, 'new.pdf'),
      await uploadTo(n.id, 'keep.pdf'),
      await call('DELETE', `/api/notice-attachments/${att.id}`, admin),
    ];
    for (const r of attempts) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().code).toBe('error.recordDeleted');
    }
    const after = (await call('GET', `/api/notices/${n.id}`, admin)).json();
    expect(after).toMatchObject({ content: '内容', version: current.json().version });
    expect((await call('GET', `/api/notice-attachments/${att.id}/download`, admin)).statusCode).toBe(200);
  });

  it('a live notice still takes edits and attachments', async () => {
    const n = (await call('POST', '/api/notices', admin, { title: `仍可编辑 ${Date.now()}`, content: 'a' })).json();
    expect((await call('PUT', `/api/notices/${n.id}`, admin, { ...n, content: 'b' })).statusCode).toBe(200);
    expect((await uploadTo(n.id, 'ok.pdf')).statusCode).toBe(201);
  });
});

describe('decisions that send something back take a reason', () => {
  it('reject rejection (settlement objection) needs the objection, which is kept', async () => {
    const line = await insert('settlementLine', {
      period: '2026-11',
      supplierCode: 'S001',
      originalPartsCode: 'OP-9',
      feePartsCode: 'FP-9',
      qty: 1,
      unitFee: 10,
      amount: 10,
      status: code('settlementLineStatus', 'toBeSettled'),
    });
    const sid = (await call('POST', '/api/settlement-lines/actions/initiate', sup, { ids: [line] })).json().data[0].settlementId;
    expect((await call('POST', `/api/settlements/${sid}/actions/reject`, staff, { opinion: '金额有误' })).statusCode).toBe(200);
    const none = await call('POST', `/api/settlements/${sid}/actions/rejectRejection`, sup, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ objection: 'validation.required' });
    expect((await call('POST', `/api/settlements/${sid}/actions/rejectRejection`, sup, { objection: '   ' })).json().errors).toEqual({
      objection: 'validation.required',
    });
    const ok = await call('POST', `/api/settlements/${sid}/actions/rejectRejection`, sup, { objection: '金额按合同计算无误' });
    expect(ok.json()).toMatchObject({ approvalStatus: code('settlementApprovalStatus', 'pending'), objection: '金额按合同计算无误', opinion: '金额有误' });
  });

  it('the supplier rejects fee items with a reason, kept on each item', async () => {
    const item = (n: number) =>
      insert('consultingFeeItem', {
        originalPartsCode: `OP-R${n}`,
        feePartsCode: `ZX-R${n}`,
        consultingFee: 10,
        managementRate: 0.1,
        supplierCode: 'S001',
        state: code('consultingFeeItemState', 'toBeConfirmed'),
        effectiveDate: '2026-12-01',
      });
    const ids = [await item(1), await item(2)];
    const none = await call('POST', '/api/consulting-fee-items/actions/reject', sup, { ids });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ rejectReason: 'validation.required' });
    const ok = await call('POST', '/api/consulting-fee-items/actions/reject', sup, { ids, rejectReason: '费率与合同不符' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.map((r: { state: string; rejectReason: string }) => [r.state, r.rejectReason])).toEqual([
      [code('consultingFeeItemState', 'void'), '费率与合同不符'],
      [code('consultingFeeItemState', 'void'), '费率与合同不符'],
    ]);
  });

  it('internal staff return a stock adjustment with the reason (audit note)', async () => {
    // an adjustment names a part of the supplier's child-part stock at this PDC (metadata lookup)
    await insert('childPartStock', {
      partsCode: 'C-RT',
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      demandQty: 0,
      stockQty: 0,
      availableQty: 0,
      totalStockQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });
    const a = (
      await call('POST', '/api/stock-adjustments', sup, { partsCode: 'C-RT', adjustQty: 2, adjustType: code('adjustType', 'adjustAccount'), reason: '盘点' })
    ).json();
    await call('POST', `/api/stock-adjustments/${a.id}/actions/submit`, sup, {});
    const none = await call('POST', `/api/stock-adjustments/${a.id}/actions/return`, staff, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ auditNote: 'validation.required' });
    const ok = await call('POST', `/api/stock-adjustments/${a.id}/actions/return`, staff, { auditNote: '请补充盘点表' });
    expect(ok.json()).toMatchObject({ status: code('stockAdjustStatus', 'unsubmitted'), auditNote: '请补充盘点表' });
  });
});
