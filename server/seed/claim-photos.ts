/**
 * The dealers' photos of their claims (demo data): real small JPG and PNG files
 * (server/seed/assets/, drawn once in Chromium: a damaged parts box, and the label of one with the
 * fault circled), stored in the portal's file store like uploads, so the claim view's download and
 * preview have something to show. Dealers attach them outside the portal (source "dealer").
 *
 * Every submitted claim gets the JPG, every other one also the PNG; at most the first
 * MAX_CLAIMS_WITH_PHOTOS claims (a benchmark-scale seed does not need a million files).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db } from '../db/types.ts';
import type { FileStore } from '../plugins/file-store.ts';
import { RowWriter } from './writer.ts';

export const MAX_CLAIMS_WITH_PHOTOS = 200;
export const CLAIM_PHOTOS = [
  { fileName: '破损外箱.jpg', asset: 'damaged-box.jpg', mimeType: 'image/jpeg' },
  { fileName: 'label-detail.png', asset: 'label-detail.png', mimeType: 'image/png' },
] as const;

/** server/seed/assets, from the source (tsx) or from the compiled server (server/dist/main.mjs). */
export function asset(name: string): Buffer {
  for (const dir of ['./assets/', '../seed/assets/']) {
    const p = fileURLToPath(new URL(dir + name, import.meta.url));
    if (existsSync(p)) return readFileSync(p);
  }
  throw new Error(`seed asset ${name} not found`);
}

export async function seedClaimPhotos(db: Db, meta: CompiledMetadata, files: FileStore, now: string): Promise<number> {
  const claim = meta.entities.claim;
  const att = meta.entities.claimAttachment;
  const unsubmitted = meta.codeTables.claimStatus.values.find((v) => v.key === 'unsubmitted')!.code;
  const dealer = meta.codeTables.claimAttachmentSource.values.find((v) => v.key === 'dealer')!.code;
  const claims = await db.all<{ id: number; submitter: string | null; submittedAt: string | null }>(
    `SELECT ${quote('id')} AS id, ${quote(claim.fields.submitter.column)} AS submitter, ${quote(claim.fields.submittedAt.column)} AS "submittedAt" FROM ${quote(claim.table)} WHERE ${quote(claim.fields.status.column)} <> ? ORDER BY ${quote('id')} LIMIT ?`,
    [unsubmitted, MAX_CLAIMS_WITH_PHOTOS],
  );
  const data = CLAIM_PHOTOS.map((p) => ({ ...p, data: asset(p.asset) }));
  const rows: Record<string, unknown>[] = [];
  for (const [i, c] of claims.entries()) {
    for (const p of i % 2 === 0 ? data : data.slice(0, 1)) {
      rows.push({
        claimId: Number(c.id),
        fileName: p.fileName,
        fileSize: p.data.length,
        mimeType: p.mimeType,
        source: dealer,
        uploader: c.submitter,
        uploadedAt: c.submittedAt ?? now,
        storageName: await files.save(p.data),
      });
    }
  }
  await RowWriter.write(db, meta, (w) => rows.forEach((r) => w.insert(att.name, r)));
  return rows.length;
}
