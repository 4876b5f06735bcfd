/**
 * Demo rows owed to entities added to a portal that already has demo data. A table the migration
 * creates is marked in _settings (`demo_pending:<table>`) before its rows are generated, and the
 * mark goes only when they are written: when generation fails (a seed hint the generator refuses)
 * the start goes on with the table empty, says which entity failed, why and what happens next, and
 * the next start (in `npm run dev`: the next metadata change) tries again, once the cause is fixed.
 * A marked table somebody filled meanwhile, or whose entity is gone, is left alone.
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db } from '../db/types.ts';
import { genericEntities } from './generic.ts';
import { HAND_SEEDED, seedNewTables } from './index.ts';

const MARK = 'demo_pending:';

/** The tables still owed demo rows (marked, not yet written). */
export async function pendingDemoTables(db: Db): Promise<string[]> {
  const rows = await db.all<{ name: string }>(`SELECT name FROM _settings WHERE name LIKE ? ORDER BY name`, [`${MARK}%`]);
  return rows.map((r) => r.name.slice(MARK.length));
}

/**
 * Marks the generic entities' tables in `created`, then writes demo rows into every marked table
 * that is still empty, one entity at a time (one failing does not keep the others empty).
 * Returns the entities that got rows; failures go to `log`, never up: the portal starts without them.
 */
export async function seedOwedTables(db: Db, meta: CompiledMetadata, created: readonly string[], log: (msg: string) => void): Promise<string[]> {
  const byTable = new Map(genericEntities(meta, HAND_SEEDED).map((e) => [e.table, e]));
  for (const t of created)
    if (byTable.has(t)) await db.run(`INSERT INTO _settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, [MARK + t, new Date().toISOString()]);
  const seeded: string[] = [];
  for (const table of await pendingDemoTables(db)) {
    const settle = () => db.run(`DELETE FROM _settings WHERE name = ?`, [MARK + table]);
    const e = byTable.get(table);
    if (!e || (await db.get(`SELECT 1 AS x FROM ${quote(table)} LIMIT 1`))) {
      await settle();
      continue;
    }
    try {
      seeded.push(...(await seedNewTables(db, meta, [table])));
      await settle();
    } catch (err) {
      // what the failed attempt wrote goes, so that the next attempt finds the table empty again
      await db.run(`DELETE FROM ${quote(table)}`);
      log(
        `demo data for the new entity "${e.name}" NOT written: ${(err as Error).message}. Its table stays empty until the cause is fixed; ` +
          `the next start tries again (npm run dev: on the next metadata change), or start over with a fresh database (npm run seed -- --force)`,
      );
    }
  }
  return seeded;
}
