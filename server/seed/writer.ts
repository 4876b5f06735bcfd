/**
 * Fast row writer for seeding: one prepared INSERT per entity, values by field name, defaults and
 * audit columns filled from metadata. It bypasses permissions on purpose (seeding is not a user).
 */
import type { CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { sqlite as d } from '../../codegen/runtime/dialect.ts';
import type { DB } from '../db/open.ts';
import type { Statement } from 'better-sqlite3';

export class RowWriter {
  private readonly stmts = new Map<string, { stmt: Statement<unknown[], unknown>; fields: string[] }>();
  constructor(
    readonly db: DB,
    readonly meta: CompiledMetadata,
    readonly now: string = new Date().toISOString(),
    readonly by = 'seed',
  ) {}

  /** Inserts one row of `entity` and returns its id. Unknown field names are an error (typos in seed code). */
  insert(entity: string, values: Record<string, unknown>): number {
    const e = this.meta.entities[entity];
    if (!e) throw new Error(`seed: unknown entity ${entity}`);
    for (const k of Object.keys(values)) if (!e.fields[k]) throw new Error(`seed: unknown field ${entity}.${k}`);
    const key = `${entity}:${Object.keys(values).sort().join(',')}`;
    let s = this.stmts.get(key);
    if (!s) {
      const fields = e.fieldOrder.filter((n) => n !== 'id' && (n in values || e.fields[n].default !== undefined || e.fields[n].system));
      const sql = `INSERT INTO ${d.quote(e.table)} (${fields.map((n) => d.quote(e.fields[n].column)).join(', ')}) VALUES (${fields.map(() => '?').join(', ')})`;
      s = { stmt: this.db.prepare<unknown[], unknown>(sql), fields };
      this.stmts.set(key, s);
    }
    const row = s.fields.map((n) => this.valueOf(e, n, values));
    return Number(s.stmt.run(...row).lastInsertRowid);
  }

  /**
   * A fast inserter for bulk seeding: the field list is checked and the statement prepared once,
   * and each call only reads those fields from `values` (undefined takes the field's default, else
   * null). Version, audit columns and defaults of the other fields are filled as insert() fills them.
   */
  inserter(entity: string, fields: readonly string[]): (values: Record<string, unknown>) => number {
    const e = this.meta.entities[entity];
    if (!e) throw new Error(`seed: unknown entity ${entity}`);
    for (const k of fields) if (!e.fields[k] || k === 'id') throw new Error(`seed: unknown field ${entity}.${k}`);
    const given = new Set(fields);
    const rest = e.fieldOrder.filter((n) => n !== 'id' && !given.has(n) && (e.fields[n].default !== undefined || e.fields[n].system));
    const cols = [...fields, ...rest];
    const stmt = this.db.prepare<unknown[], unknown>(
      `INSERT INTO ${d.quote(e.table)} (${cols.map((n) => d.quote(e.fields[n].column)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    const defaults = fields.map((n) => e.fields[n].default ?? null);
    const row: unknown[] = [...fields.map(() => null), ...rest.map((n) => this.valueOf(e, n, {}))];
    const nf = fields.length;
    return (values) => {
      for (let i = 0; i < nf; i++) {
        const v = values[fields[i]];
        row[i] = v === undefined ? defaults[i] : typeof v === 'boolean' ? (v ? 1 : 0) : v;
      }
      return Number(stmt.run(row).lastInsertRowid);
    };
  }

  private valueOf(e: CompiledEntity, n: string, values: Record<string, unknown>): unknown {
    let v: unknown;
    if (n in values) v = values[n];
    else if (n === 'version') v = 1;
    else if (n === 'createdAt' || n === 'updatedAt') v = this.now;
    else if (n === 'createdBy' || n === 'updatedBy') v = this.by;
    else v = e.fields[n].default ?? null;
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  }
}

/** Deterministic pseudo-random numbers (mulberry32): the same seed gives the same demo data. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;
