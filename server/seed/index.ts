/**
 * Demo data: `seedDatabase` fills an empty database once (PORTAL_SEED=demo, the default).
 * The business data comes from seed/business.ts with a fixed random seed, so every run gives the
 * same rows; `scale` multiplies the volumes (benchmarks use it: scale 1 = the everyday demo).
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { DB } from '../db/open.ts';
import { PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { RowWriter } from './writer.ts';
import { seedBase } from './base.ts';
import { seedBusiness } from './business.ts';

export interface SeedOptions { hashParams?: ScryptParams; scale?: number; seed?: number; now?: string }

export function isEmpty(db: DB): boolean {
  return !db.prepare(`SELECT 1 FROM account LIMIT 1`).get();
}

export async function seedDatabase(db: DB, meta: CompiledMetadata, opts: SeedOptions = {}): Promise<void> {
  const w = new RowWriter(db, meta, opts.now ?? new Date().toISOString());
  await seedBase(w, meta, opts.hashParams ?? PRODUCTION_PARAMS);
  seedBusiness(w, meta, { scale: opts.scale ?? 1, seed: opts.seed ?? 20261122 });
}
