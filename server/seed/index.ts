/**
 * Demo data: `seedDatabase` fills an empty database once (PORTAL_SEED=demo, the default).
 * The business data comes from seed/business.ts with a fixed random seed, so every run gives the
 * same rows; `scale` multiplies the volumes (benchmarks use it: scale 1 = the everyday demo).
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Db } from '../db/types.ts';
import { PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { RowWriter } from './writer.ts';
import { seedBase } from './base.ts';
import { seedBusiness } from './business.ts';
import { seedClaimPhotos } from './claim-photos.ts';
import type { FileStore } from '../plugins/file-store.ts';

/** `files`: the portal's file store; with it the claims get their dealers' photos (stored files). */
export interface SeedOptions { hashParams?: ScryptParams; scale?: number; seed?: number; now?: string; files?: FileStore }

export async function isEmpty(db: Db): Promise<boolean> {
  return !(await db.get(`SELECT 1 AS x FROM account LIMIT 1`));
}

export async function seedDatabase(db: Db, meta: CompiledMetadata, opts: SeedOptions = {}): Promise<void> {
  const w = await RowWriter.open(db, meta, opts.now ?? new Date().toISOString());
  await seedBase(w, meta, opts.hashParams ?? PRODUCTION_PARAMS);
  await seedBusiness(w, meta, { scale: opts.scale ?? 1, seed: opts.seed ?? 20261122 });
  await w.close();
  if (opts.files) await seedClaimPhotos(db, meta, opts.files, opts.now ?? new Date().toISOString());
  for (const sql of db.dialect.afterBulkLoad) await db.exec(sql);
}
