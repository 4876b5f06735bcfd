/**
 * Fast row writer for seeding: values by field name, defaults and audit columns filled from
 * metadata. It bypasses permissions on purpose (seeding is not a user).
 *
 * Rows get their ids here, not from the database, and are buffered: a seed module writes rows
 * and refers to their ids at once (synchronously), and `flush()` loads what is buffered in one
 * transaction with the driver's bulk insert (multi-row INSERTs on PostgreSQL). The tables must
 * not be written by anybody else while a writer is open (seeding fills an empty database).
 * Closing it builds the charts' sums of the tables it wrote (close()).
 */
import type { CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db } from '../db/types.ts';
import { allSummedCharts, rebuildChartSums } from '../home/chart-sums-build.ts';

interface Buffer {
  table: string;
  columns: string[];
  rows: unknown[][];
}

export class RowWriter {
  private readonly nextIds = new Map<string, number>();
  private readonly buffers = new Map<string, Buffer>();
  private readonly touched = new Set<string>();
  /** rows waiting in the buffers */
  buffered = 0;

  private constructor(
    readonly db: Db,
    readonly meta: CompiledMetadata,
    readonly now: string,
    readonly by: string,
  ) {}

  /**
   * Opens a writer, runs `fn` with it (it may buffer rows and use their ids) and closes it: the
   * rows are written and the database's id generators continue after them. For tests and tools
   * that add a few rows to a database in use.
   */
  static async write<T>(db: Db, meta: CompiledMetadata, fn: (w: RowWriter) => T): Promise<T> {
    const w = await RowWriter.open(db, meta);
    const result = fn(w);
    await w.close();
    return result;
  }

  /** A writer whose ids continue after the largest id of every entity's table. */
  static async open(db: Db, meta: CompiledMetadata, now: string = new Date().toISOString(), by = 'seed'): Promise<RowWriter> {
    const w = new RowWriter(db, meta, now, by);
    for (const e of Object.values(meta.entities)) {
      const row = await db.get<{ n: number | null }>(`SELECT MAX(${quote('id')}) AS n FROM ${quote(e.table)}`);
      w.nextIds.set(e.name, Number(row?.n ?? 0) + 1);
    }
    return w;
  }

  private entity(name: string): CompiledEntity {
    const e = this.meta.entities[name];
    if (!e) throw new Error(`seed: unknown entity ${name}`);
    return e;
  }

  private newId(entity: string): number {
    const id = this.nextIds.get(entity)!;
    this.nextIds.set(entity, id + 1);
    return id;
  }

  private bufferOf(e: CompiledEntity, fields: readonly string[]): Buffer {
    const key = `${e.name}:${fields.join(',')}`;
    let b = this.buffers.get(key);
    if (!b) {
      b = { table: e.table, columns: ['id', ...fields].map((n) => e.fields[n].column), rows: [] };
      this.buffers.set(key, b);
    }
    this.touched.add(e.table);
    return b;
  }

  /** Buffers one row of `entity` and returns its id. Unknown field names are an error (typos in seed code). */
  insert(entity: string, values: Record<string, unknown>): number {
    const e = this.entity(entity);
    for (const k of Object.keys(values)) if (!e.fields[k]) throw new Error(`seed: unknown field ${entity}.${k}`);
    const fields = e.fieldOrder.filter((n) => n !== 'id' && (n in values || e.fields[n].default !== undefined || e.fields[n].system));
    const id = this.newId(entity);
    this.bufferOf(e, fields).rows.push([id, ...fields.map((n) => this.valueOf(e, n, values))]);
    this.buffered++;
    return id;
  }

  /**
   * A fast inserter for bulk seeding: the field list is checked once, and each call only reads
   * those fields from `values` (undefined takes the field's default, else null). Version, audit
   * columns and defaults of the other fields are filled as insert() fills them.
   */
  inserter(entity: string, fields: readonly string[]): (values: Record<string, unknown>) => number {
    const e = this.entity(entity);
    for (const k of fields) if (!e.fields[k] || k === 'id') throw new Error(`seed: unknown field ${entity}.${k}`);
    const given = new Set(fields);
    const rest = e.fieldOrder.filter((n) => n !== 'id' && !given.has(n) && (e.fields[n].default !== undefined || e.fields[n].system));
    const buffer = this.bufferOf(e, [...fields, ...rest]);
    const defaults = fields.map((n) => e.fields[n].default ?? null);
    const restValues = rest.map((n) => this.valueOf(e, n, {}));
    const bool = this.db.dialect.bool;
    const nf = fields.length;
    return (values) => {
      const id = this.newId(entity);
      const row: unknown[] = new Array(nf + 1 + restValues.length);
      row[0] = id;
      for (let i = 0; i < nf; i++) {
        const v = values[fields[i]];
        row[i + 1] = v === undefined ? defaults[i] : typeof v === 'boolean' ? bool(v) : v;
      }
      for (let i = 0; i < restValues.length; i++) row[nf + 1 + i] = restValues[i];
      buffer.rows.push(row);
      this.buffered++;
      return id;
    };
  }

  /** Writes every buffered row, in one transaction. */
  async flush(): Promise<void> {
    if (!this.buffered) return;
    const pending = [...this.buffers.values()].filter((b) => b.rows.length);
    await this.db.transaction(async (tx) => {
      for (const b of pending) await this.db.insertMany(b.table, b.columns, b.rows, tx);
    });
    for (const b of pending) b.rows = [];
    this.buffered = 0;
  }

  /**
   * Flushes, then lets the database's own id generators continue after the ids written here, and
   * builds the charts' sums of the tables written again from their rows: the rows went in without
   * the engine, which keeps those sums on every write of its own (server/home/chart-sums.ts).
   */
  async close(): Promise<void> {
    await this.flush();
    for (const t of this.touched) for (const sql of this.db.dialect.resetIdentity(t)) await this.db.get(sql);
    const summed = allSummedCharts(this.meta).filter((c) => this.touched.has(this.meta.entities[c.summary.entity].table));
    this.touched.clear();
    await rebuildChartSums(this.db, this.meta, summed);
  }

  private valueOf(e: CompiledEntity, n: string, values: Record<string, unknown>): unknown {
    let v: unknown;
    if (n in values) v = values[n];
    else if (n === 'version') v = 1;
    else if (n === 'createdAt' || n === 'updatedAt') v = this.now;
    else if (n === 'createdBy' || n === 'updatedBy') v = this.by;
    else v = e.fields[n].default ?? null;
    return typeof v === 'boolean' ? this.db.dialect.bool(v) : v;
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
