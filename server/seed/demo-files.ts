/**
 * Demo files for file entities whose seed hint asks for them (`"seed": { "files": n }`): n files per
 * parent record (the first MAX_PARENTS parents by id), real small files of the file rule's first
 * type this module can make, stored in the portal's file store like uploads, so the parent's screen
 * has something to download and preview. A rule with none of these types gets no demo files.
 */
import type { CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db } from '../db/types.ts';
import type { FileStore } from '../plugins/file-store.ts';
import { asset } from './claim-photos.ts';
import { RowWriter } from './writer.ts';

export const MAX_PARENTS = 20;

/** A one-page PDF that says what it is (readers open it; the bytes are the same on every run). */
function demoPdf(title: string): Buffer {
  const text = `BT /F1 18 Tf 72 720 Td (${title.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The kinds of file this module makes, by extension. */
const MAKERS: Record<string, { mimeType: string; data: (title: string) => Buffer }> = {
  pdf: { mimeType: 'application/pdf', data: demoPdf },
  png: { mimeType: 'image/png', data: () => asset('label-detail.png') },
  jpg: { mimeType: 'image/jpeg', data: () => asset('damaged-box.jpg') },
};

/** File entities with a `files` seed hint and a rule that allows a type this module makes. */
export function demoFileEntities(meta: CompiledMetadata): { entity: CompiledEntity; ext: string }[] {
  const out: { entity: CompiledEntity; ext: string }[] = [];
  for (const e of Object.values(meta.entities)) {
    if (!e.file || !e.seed?.files || !e.scope.parent) continue;
    const ext = meta.rules[e.file.rule]?.fileTypes?.find((t) => t in MAKERS);
    if (ext) out.push({ entity: e, ext });
  }
  return out;
}

/** Writes the demo files of every entity that asks for them; returns how many files were stored. */
export async function seedDemoFiles(db: Db, meta: CompiledMetadata, files: FileStore, now: string): Promise<number> {
  let count = 0;
  for (const { entity: e, ext } of demoFileEntities(meta)) {
    const parentField = e.fields[e.scope.parent!];
    const parent = parentField.ref ? meta.entities[parentField.ref] : undefined;
    if (!parent) continue;
    const parents = await db.all<{ id: number }>(`SELECT ${quote('id')} AS id FROM ${quote(parent.table)} ORDER BY ${quote('id')} LIMIT ?`, [MAX_PARENTS]);
    const maker = MAKERS[ext];
    const rows: Record<string, unknown>[] = [];
    for (const p of parents) {
      for (let n = 1; n <= e.seed!.files!; n++) {
        const fileName = `demo-${parent.name}-${p.id}-${n}.${ext}`;
        const data = maker.data(fileName);
        const row: Record<string, unknown> = { [parentField.name]: Number(p.id), fileName, storageName: await files.save(data) };
        if (e.fields.fileSize) row.fileSize = data.length;
        if (e.fields.mimeType) row.mimeType = maker.mimeType;
        if (e.fields.uploadedAt) row.uploadedAt = now;
        rows.push(row);
      }
    }
    await RowWriter.write(db, meta, (w) => rows.forEach((r) => w.insert(e.name, r)));
    count += rows.length;
  }
  return count;
}
