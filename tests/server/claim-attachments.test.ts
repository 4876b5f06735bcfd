/**
 * Claim attachments (issue 9 point 6): the demo claims carry their dealers' photos as real stored
 * JPG and PNG files (downloadable, previewable inline); a supplier adds evidence with a logistics
 * appeal (JPG/PNG only, name at most 50 characters, at most 1024 KiB, never empty) while the
 * claim's logistics status is waiting or appealing, and deletes only its own evidence; the
 * dealer's photos stay; nobody else uploads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bearer, build, code, login, multipart, PDF, type TestApp } from './helpers.ts';

let t: TestApp;
let sup: string;
let sup2: string;
let staff: string;
const JPG = readFileSync('server/seed/assets/damaged-box.jpg');
const PNG = readFileSync('server/seed/assets/label-detail.png');

beforeAll(async () => {
  t = await build();
  [sup, sup2, staff] = [await login(t.app, 'sup01'), await login(t.app, 'sup02'), await login(t.app, 'staff01')];
});
afterAll(() => t.close());

const get = (url: string, tok = sup) => t.app.inject({ method: 'GET', url, headers: { ...bearer(tok), 'accept-language': 'en-US' } });
const upload = (claimId: number, name: string, data: Buffer, tok = sup, overwrite = false) => {
  const m = multipart({ claimId: String(claimId) }, { name, data });
  return t.app.inject({
    method: 'POST',
    url: `/api/claim-attachments/upload${overwrite ? '?overwrite=true' : ''}`,
    headers: { ...bearer(tok), ...m.headers },
    payload: m.payload,
  });
};
/** a claim of S001 (visible to sup01) in the given logistics status */
async function claimIn(logistics: string): Promise<number> {
  const row = await t.app.db.get<{ id: number }>(
    `SELECT id FROM claim WHERE supplier_code = 'S001' AND logistics_status = ? AND status <> ? ORDER BY id LIMIT 1`,
    [code('logisticsConfirmStatus', logistics), code('claimStatus', 'unsubmitted')],
  );
  return Number(row!.id);
}
const attachmentsOf = async (claimId: number, tok = sup) =>
  (await get(`/api/claim-attachments?filter=${encodeURIComponent(JSON.stringify({ claimId }))}`, tok)).json() as {
    id: number;
    fileName: string;
    source: string;
    mimeType: string;
    fileSize: number;
  }[];

describe("the dealers' photos in the demo data", () => {
  it('are real JPG and PNG files: listed under their claim, downloaded and previewed inline', async () => {
    const id = await claimIn('wait');
    const list = await attachmentsOf(id);
    expect(list.length).toBeGreaterThan(0);
    for (const a of list) {
      expect(a.source).toBe(code('claimAttachmentSource', 'dealer'));
      const dl = await get(`/api/claim-attachments/${a.id}/download`);
      expect(dl.statusCode).toBe(200);
      expect(dl.rawPayload.length).toBe(a.fileSize);
      expect(dl.headers['content-type']).toBe(a.mimeType);
      const magic = dl.rawPayload.subarray(0, 4).toString('hex');
      expect(a.mimeType === 'image/png' ? magic : magic.slice(0, 6)).toBe(a.mimeType === 'image/png' ? '89504e47' : 'ffd8ff');
      const inline = await get(`/api/claim-attachments/${a.id}/download?inline=true`);
      expect(String(inline.headers['content-disposition'])).toMatch(/^inline/);
    }
    const all = (await t.app.db.all<{ mime_type: string }>(`SELECT DISTINCT mime_type FROM claim_attachment`)).map((r) => r.mime_type).sort();
    expect(all).toEqual(['image/jpeg', 'image/png']);
  });
});

describe("a supplier's evidence", () => {
  it("is added with an appeal (logistics waiting or appealing), as JPG or PNG, marked as the supplier's", async () => {
    for (const state of ['wait', 'appealing']) {
      const id = await claimIn(state);
      const r = await upload(id, `证据-${state}.png`, PNG);
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json()).toMatchObject({ claimId: id, source: code('claimAttachmentSource', 'supplier'), mimeType: 'image/png', uploader: expect.any(String) });
      expect((await upload(id, 'evidence.jpg', JPG)).statusCode).toBe(201);
    }
  });

  it('follows the file rule: JPG/PNG by content, a name of at most 50 characters, at most 1024 KiB, not empty', async () => {
    const id = await claimIn('wait');
    expect((await upload(id, 'report.pdf', PDF)).json().code).toBe('error.fileType');
    expect((await upload(id, 'photo.png', PDF)).json().code).toBe('error.fileType');
    expect((await upload(id, `${'照'.repeat(47)}.png`, PNG)).json().code).toBe('error.fileNameTooLong');
    expect((await upload(id, `${'照'.repeat(46)}.png`, PNG)).statusCode).toBe(201);
    expect((await upload(id, 'empty.png', Buffer.alloc(0))).json().code).toBe('error.fileEmpty');
    const big = await upload(id, 'big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
    expect(big.statusCode).toBe(413);
  });

  it('is frozen once the logistics finding is settled (confirmed or recalled): no upload, no deletion', async () => {
    for (const state of ['confirmed', 'recalled']) {
      const r = await upload(await claimIn(state), 'late.png', PNG);
      expect(r.statusCode).toBe(409);
      expect(r.json().code).toBe('error.fileNotAllowed');
    }
    const id = await claimIn('wait');
    const mine = (await upload(id, 'to-freeze.png', PNG)).json();
    await t.app.db.run(`UPDATE claim SET logistics_status = ? WHERE id = ?`, [code('logisticsConfirmStatus', 'confirmed'), id]);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/claim-attachments/${mine.id}`, headers: bearer(sup) });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('error.fileNotAllowed');
    await t.app.db.run(`UPDATE claim SET logistics_status = ? WHERE id = ?`, [code('logisticsConfirmStatus', 'wait'), id]);
  });

  it("the supplier deletes its own evidence, never the dealer's photos; other suppliers and staff upload nothing", async () => {
    const id = await claimIn('wait');
    const mine = (await upload(id, 'mine.png', PNG)).json();
    const dealers = (await attachmentsOf(id)).find((a) => a.source === code('claimAttachmentSource', 'dealer'))!;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/claim-attachments/${dealers.id}`, headers: bearer(sup) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/claim-attachments/${mine.id}`, headers: bearer(sup) })).statusCode).toBe(200);
    expect((await attachmentsOf(id)).map((a) => a.id)).toContain(dealers.id);
    expect((await upload(id, 'staff.png', PNG, staff)).statusCode).toBe(403);
    const other = await upload(id, 'other.png', PNG, sup2);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.claimId).toBe('validation.ref');
    // claims live in the claim warehouse only
    const pdc2 = await login(t.app, 'sup01', 'PDC02');
    expect((await upload(id, 'pdc2.png', PNG, pdc2)).statusCode).toBe(403);
  });
});
