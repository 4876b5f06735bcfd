/**
 * Instant substring search (issue 21): every field whose metadata declares the `contains` filter
 * gets a trigram index, so `field_like` no longer reads every row of its scope.
 *
 * - SQLite: one FTS5 table per entity with the trigram tokenizer over its `contains` columns
 *   (`<table>__trgm`, external content: the entity's own table, so nothing is stored twice but the
 *   index), kept current by three triggers (insert, delete, update of those columns) and built from
 *   the rows already there when it is created ('rebuild'). The query (trigramCondition) keeps the
 *   LIKE it always had and adds `id IN (rows whose trigrams match)`: the index narrows, LIKE decides,
 *   so the answer is exactly LIKE's (the tokenizer folds case more widely than LIKE, never less).
 * - PostgreSQL: pg_trgm's GIN index per column (`gin_trgm_ops`); the planner uses it for the
 *   ILIKE the engine writes anyway, so the query does not change.
 *
 * A search of one or two characters has no trigram: it keeps the plain LIKE (correct, slower).
 * The indexes are made after the migration, on every start, when missing or different from what the
 * metadata asks (a SQLite table rebuild drops the triggers: they and the index are made again).
 */
import type { CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db } from './types.ts';

/** Searches shorter than this have no trigram: plain LIKE. */
export const MIN_TRIGRAM_CHARS = 3;

/** The fields of `e` with a trigram index: those that declare the `contains` filter (tables only, not views). */
export function trigramFields(e: CompiledEntity): string[] {
  if (e.view) return [];
  return e.fieldOrder.filter((n) => e.fields[n].filter.includes('contains') && !e.fields[n].private && e.fields[n].type !== 'boolean');
}

export const ftsTable = (e: CompiledEntity): string => `${e.table}__trgm`;
const pgIndexName = (e: CompiledEntity, column: string): string => `trgm_${e.table}_${column}`.slice(0, 63);

/** The SQLite statements that make `e`'s trigram table and triggers (names and text compared on start). */
export function sqliteTrigramDdl(e: CompiledEntity): { table: string; triggers: Record<string, string>; create: string } | null {
  const cols = trigramFields(e).map((n) => quote(e.fields[n].column));
  if (!cols.length) return null;
  const fts = ftsTable(e);
  const t = quote(e.table);
  const list = cols.join(', ');
  const newVals = cols.map((c) => `new.${c}`).join(', ');
  const oldVals = cols.map((c) => `old.${c}`).join(', ');
  const del = `INSERT INTO ${quote(fts)}(${quote(fts)}, rowid, ${list}) VALUES ('delete', old."id", ${oldVals});`;
  const ins = `INSERT INTO ${quote(fts)}(rowid, ${list}) VALUES (new."id", ${newVals});`;
  return {
    table: fts,
    create: `CREATE VIRTUAL TABLE ${quote(fts)} USING fts5(${list}, content=${quote(e.table)}, content_rowid='id', tokenize='trigram')`,
    triggers: {
      [`${fts}_ai`]: `CREATE TRIGGER ${quote(`${fts}_ai`)} AFTER INSERT ON ${t} BEGIN ${ins} END`,
      [`${fts}_ad`]: `CREATE TRIGGER ${quote(`${fts}_ad`)} AFTER DELETE ON ${t} BEGIN ${del} END`,
      [`${fts}_au`]: `CREATE TRIGGER ${quote(`${fts}_au`)} AFTER UPDATE OF ${list} ON ${t} BEGIN ${del} ${ins} END`,
    },
  };
}

/**
 * Makes the trigram indexes the metadata asks for, where missing or different; answers one line per
 * index made (for the start-up log). PostgreSQL needs the pg_trgm extension (part of Debian's
 * postgresql package): without the right to create it, the searches stay correct, only slower.
 */
export async function ensureTrigramIndexes(db: Db, meta: CompiledMetadata, warn: (msg: string) => void = () => undefined): Promise<string[]> {
  const steps: string[] = [];
  const entities = Object.values(meta.entities).filter((e) => trigramFields(e).length);
  if (db.kind === 'sqlite') {
    for (const e of entities) {
      const ddl = sqliteTrigramDdl(e)!;
      const have = new Map(
        (
          await db.all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE name = ? OR (type = 'trigger' AND tbl_name = ?)`, [
            ddl.table,
            e.table,
          ])
        ).map((r) => [r.name, r.sql]),
      );
      const current = have.get(ddl.table) === ddl.create && Object.entries(ddl.triggers).every(([name, sql]) => have.get(name) === sql);
      if (current) continue;
      await db.transaction(async (q) => {
        for (const name of Object.keys(ddl.triggers)) await q.run(`DROP TRIGGER IF EXISTS ${quote(name)}`);
        await q.run(`DROP TABLE IF EXISTS ${quote(ddl.table)}`);
        await q.run(ddl.create);
        for (const sql of Object.values(ddl.triggers)) await q.run(sql);
        await q.run(`INSERT INTO ${quote(ddl.table)}(${quote(ddl.table)}) VALUES ('rebuild')`);
      });
      steps.push(`built trigram index "${ddl.table}" on "${e.table}" (${trigramFields(e).join(', ')})`);
    }
    return steps;
  }
  try {
    await db.run(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
  } catch (err) {
    warn(`pg_trgm is not available (${(err as Error).message}): substring searches run without their trigram indexes`);
    return steps;
  }
  for (const e of entities) {
    for (const n of trigramFields(e)) {
      const name = pgIndexName(e, e.fields[n].column);
      const exists = await db.get(`SELECT 1 AS x FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?`, [name]);
      if (exists) continue;
      await db.run(`CREATE INDEX IF NOT EXISTS ${quote(name)} ON ${quote(e.table)} USING gin (${quote(e.fields[n].column)} gin_trgm_ops)`);
      steps.push(`built trigram index "${name}" on "${e.table}"."${e.fields[n].column}"`);
    }
  }
  return steps;
}

/** Whether the index should drive a search (the engine's probe, below); absent: always. */
export type TrigramProbe = (e: CompiledEntity, field: string, match: string) => boolean;

/** An FTS5 phrase limited to the column: the text in double quotes ("" for a quote inside). */
const phrase = (e: CompiledEntity, field: string, value: string) => `{${e.fields[field].column}} : "${value.replace(/"/g, '""')}"`;

/**
 * The SQLite condition of `field_like` on a trigram-indexed field: LIKE (always: it decides), narrowed
 * by the index when the search has trigrams and `narrows` (the engine's probe) says the index pays.
 * Null when the field has no trigram index, the search is too short or too common (plain LIKE).
 */
export function trigramCondition(
  e: CompiledEntity,
  field: string,
  alias: string,
  value: string,
  narrows?: TrigramProbe,
): { sql: string; params: unknown[] } | null {
  if ([...value].length < MIN_TRIGRAM_CHARS || !trigramFields(e).includes(field)) return null;
  const match = phrase(e, field, value);
  if (narrows && !narrows(e, field, match)) return null;
  const fts = quote(ftsTable(e));
  return { sql: `${alias}."id" IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, params: [match] };
}

/**
 * SQLite's planner cannot tell a rare search from a common one, and the two want opposite plans: the
 * index's row list, fetched and sorted (cost ~ matches), or the sort index's walk, stopping at a full
 * page (cost ~ page size x rows / matches). They cost the same near sqrt(page size x rows); below
 * that the index drives. The probe counts the index's matches up to that bound (one FTS read, on the
 * connection itself: better-sqlite3 is synchronous). Correctness never depends on it: LIKE decides.
 */
export function sqliteTrigramProbe(raw: { prepare(sql: string): { get(...params: unknown[]): unknown } }, pageSize: number): TrigramProbe {
  return (e, _field, match) => {
    const fts = quote(ftsTable(e));
    const rows = Number((raw.prepare(`SELECT MAX("id") AS n FROM ${quote(e.table)}`).get() as { n: number | null }).n ?? 0);
    const bound = Math.max(pageSize, Math.ceil(Math.sqrt(pageSize * rows)));
    const n = Number((raw.prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT ${bound})`).get(match) as { n: number }).n);
    return n < bound;
  };
}
