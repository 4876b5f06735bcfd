/**
 * Demo data: `seedDatabase` fills an empty database once (PORTAL_SEED=demo, the default).
 * The accounts, warehouses and notices come from seed/base.ts, the business data that must agree
 * across entities from seed/business.ts, and every other entity's rows from metadata alone
 * (seed/generic.ts). A fixed random seed gives the same rows on every run; `scale` multiplies the
 * volumes (benchmarks use it: scale 1 = the everyday demo).
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Db } from '../db/types.ts';
import { PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { RowWriter } from './writer.ts';
import { BASE_ENTITIES, seedBase } from './base.ts';
import { BUSINESS_ENTITIES, seedBusiness } from './business.ts';
import { INTERFACE_ENTITIES } from './interfaces.ts';
import { MACHINE_CLIENT_ENTITIES, seedMachineClients } from './machine-clients.ts';
import { SeedContext } from './context.ts';
import { genericEntities, seedGeneric } from './generic.ts';
import { seedDemoFiles } from './demo-files.ts';
import { seedClaimPhotos } from './claim-photos.ts';
import type { FileStore } from '../plugins/file-store.ts';

/** `files`: the portal's file store; with it the claims get their dealers' photos (stored files). */
export interface SeedOptions {
  hashParams?: ScryptParams;
  scale?: number;
  seed?: number;
  now?: string;
  files?: FileStore;
}

export const DEFAULT_SEED = 20261122;

/** Entities whose demo rows are written by hand (seed/base.ts, seed/business.ts, seed/interfaces.ts); every other one is generic. */
export const HAND_SEEDED: readonly string[] = [...BASE_ENTITIES, ...BUSINESS_ENTITIES, ...INTERFACE_ENTITIES, ...MACHINE_CLIENT_ENTITIES];

export async function isEmpty(db: Db): Promise<boolean> {
  return !(await db.get(`SELECT 1 AS x FROM account LIMIT 1`));
}

export async function seedDatabase(db: Db, meta: CompiledMetadata, opts: SeedOptions = {}): Promise<void> {
  const w = await RowWriter.open(db, meta, opts.now ?? new Date().toISOString());
  await seedBase(w, meta, opts.hashParams ?? PRODUCTION_PARAMS);
  seedMachineClients(w);
  const scale = opts.scale ?? 1;
  const seed = opts.seed ?? DEFAULT_SEED;
  await seedBusiness(w, meta, { scale, seed });
  const generic = genericEntities(meta, HAND_SEEDED);
  const ctx = new SeedContext(w, meta, scale, seed);
  await ctx.withoutIndexes(
    generic.map((e) => e.name),
    () => seedGeneric(ctx, generic),
  );
  await w.close();
  if (opts.files) {
    await seedClaimPhotos(db, meta, opts.files, opts.now ?? new Date().toISOString());
    // file entities whose seed hint asks for demo files (server/seed/demo-files.ts)
    await seedDemoFiles(db, meta, opts.files, opts.now ?? new Date().toISOString());
  }
  for (const sql of db.dialect.afterBulkLoad) await db.exec(sql);
}

/**
 * Demo rows for entities whose tables the last migration created in a database that already has
 * demo data (a developer added an entity: its screen is not empty on the next start). Only
 * generic entities: hand-written seeders run on an empty database only.
 */
export async function seedNewTables(
  db: Db,
  meta: CompiledMetadata,
  createdTables: readonly string[],
  opts: Pick<SeedOptions, 'seed' | 'now'> = {},
): Promise<string[]> {
  const created = new Set(createdTables);
  const generic = genericEntities(meta, HAND_SEEDED).filter((e) => created.has(e.table));
  if (!generic.length) return [];
  const w = await RowWriter.open(db, meta, opts.now ?? new Date().toISOString());
  const ctx = new SeedContext(w, meta, 1, opts.seed ?? DEFAULT_SEED);
  await seedGeneric(ctx, generic);
  await w.close();
  return generic.map((e) => e.name);
}
