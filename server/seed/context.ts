/**
 * What every business seed module shares: one random stream per entity (so changing one module
 * never shifts the rows of another), dates relative to a base date derived from the seed (never
 * the clock), code lookups by key, batched transactions, per-day document numbers and the split
 * of rows over the demo suppliers and warehouses.
 */
import { SEED_DAYS, type CompiledMetadata } from '../../codegen/runtime/model.ts';
import { DIALECTS, tableDef } from '../../codegen/runtime/dialect.ts';
import { rng, type Rng, type RowWriter } from './writer.ts';
import { DEMO_SUPPLIERS, DEMO_WAREHOUSES, DEMO_ACCOUNTS } from './base.ts';

/** Rows per transaction (and per flush of the writer's buffers) when seeding large volumes. */
export const BATCH_ROWS = 10_000;

export const S1 = DEMO_SUPPLIERS[0].code; // S001, sup01
export const S2 = DEMO_SUPPLIERS[1].code; // S002, sup02
export const W1 = DEMO_WAREHOUSES[0].code; // PDC01, the claim warehouse
export const W2 = DEMO_WAREHOUSES[1].code; // PDC02
export const STAFF = DEMO_ACCOUNTS.find((a) => a.accountType === 'internal')!;

/** The supplier's demo account (the one that confirms, ships and answers for it). */
export const supplierUser = (code: string) => DEMO_ACCOUNTS.find((a) => a.accountType === 'supplier' && a.departmentId === code && a.status === 'normal')!;
export const supplierName = (code: string) => DEMO_SUPPLIERS.find((s) => s.code === code)!.nameZh;

const MS_DAY = 86_400_000;
// oldest and newest day offsets any module uses: the demo calendar (codegen checks seed hints against it)
const DAY_MIN = SEED_DAYS.min;
const DAY_MAX = SEED_DAYS.max;

/**
 * The seed's base date ("today" of the demo data): a seed that reads as a calendar date yyyyMMdd
 * (the default 20261122) is that date; any other seed maps onto a day of 2026 and 2027.
 */
export function baseDateOf(seed: number): number {
  const s = String(seed);
  if (/^\d{8}$/.test(s)) {
    const y = Number(s.slice(0, 4)),
      m = Number(s.slice(4, 6)),
      d = Number(s.slice(6, 8));
    const t = Date.UTC(y, m - 1, d);
    const back = new Date(t);
    if (y >= 2000 && y <= 2100 && back.getUTCMonth() === m - 1 && back.getUTCDate() === d) return t;
  }
  return Date.UTC(2026, 0, 1) + (Math.abs(Math.trunc(seed)) % 730) * MS_DAY;
}

/** Largest-remainder split of `total` by `weights` (exact, deterministic). */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k][1]]++;
  return out;
}

/** Code lookup by key for a code table: throws at start when metadata lost a key the seed needs. */
export function codesOf<K extends string>(meta: CompiledMetadata, table: string, keys: readonly K[]): Record<K, string> {
  const t = meta.codeTables[table];
  if (!t) throw new Error(`seed: no code table ${table}`);
  const out = {} as Record<K, string>;
  for (const k of keys) {
    const v = t.values.find((x) => x.key === k);
    if (!v) throw new Error(`seed: no key ${k} in ${table}`);
    out[k] = v.code;
  }
  return out;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

export class SeedContext {
  readonly base: number;
  private readonly days: string[] = [];
  private readonly counters = new Map<string, number>();

  constructor(
    readonly w: RowWriter,
    readonly meta: CompiledMetadata,
    readonly scale: number,
    readonly seed: number,
  ) {
    this.base = baseDateOf(seed);
    for (let o = DAY_MIN; o <= DAY_MAX; o++) this.days.push(new Date(this.base + o * MS_DAY).toISOString().slice(0, 10));
  }

  /** A random stream of its own for one entity (or any other name). */
  rng(name: string): Rng {
    let h = 2166136261;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
    return rng((this.seed ^ h) >>> 0);
  }

  /** Rows at this scale for a volume given at scale 1. */
  count(atScale1: number): number {
    return Math.max(0, Math.round(atScale1 * this.scale));
  }

  /** yyyy-MM-dd of the base date plus `offset` days (negative: the past). */
  day(offset: number): string {
    const i = Math.trunc(offset) - DAY_MIN;
    if (i < 0 || i >= this.days.length) throw new Error(`seed: day offset ${offset} out of range (the demo calendar allows ${DAY_MIN} to ${DAY_MAX})`);
    return this.days[i];
  }

  /** ISO datetime (UTC) of day `offset` at `minute` minutes after midnight (plus a few seconds). */
  at(offset: number, minute: number, second = 0): string {
    const m = Math.max(0, Math.min(1439, Math.trunc(minute)));
    return `${this.day(offset)}T${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}:${pad(second % 60, 2)}.000Z`;
  }

  /** A working-hours time of day (Beijing 08:00-18:00 is 00:00-10:00 UTC). */
  workMinute(r: Rng): number {
    return r.int(0, 599);
  }

  /** Day offset of the first day of the month `months` months after the base date's month. */
  monthStart(months: number): number {
    const b = new Date(this.base);
    return Math.round((Date.UTC(b.getUTCFullYear(), b.getUTCMonth() + months, 1) - this.base) / MS_DAY);
  }

  /** yyyyMMdd of a day offset (document numbers). */
  compact(offset: number): string {
    const s = this.day(offset);
    return s.slice(0, 4) + s.slice(5, 7) + s.slice(8, 10);
  }

  /**
   * The next number of a per-day series: `prefix + yyyyMMdd + n` padded to `digits`.
   * A series can outgrow its digits at very large scales and stays unique (the date part has a fixed width).
   */
  number(prefix: string, offset: number, digits: number): string {
    const day = this.compact(offset);
    const key = `${prefix}${day}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return key + pad(n, digits);
  }

  /**
   * Records the numbers used by a server-side auto-number series (metadata autoNumber) so that
   * documents created later on the same day continue after the seeded ones instead of colliding.
   */
  async syncNumberSeries(entity: string, field: string): Promise<void> {
    const f = this.meta.entities[entity].fields[field];
    if (!f.autoNumber) return;
    const prefix = f.autoNumber.prefix;
    const db = this.w.db;
    await db.transaction(async (tx) => {
      for (const [key, n] of this.counters) {
        if (!key.startsWith(prefix) || !/^\d{8}$/.test(key.slice(prefix.length))) continue;
        await tx.run(
          `INSERT INTO _number_series (name, next_value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET next_value = ${tx.dialect.greatest('_number_series.next_value', 'excluded.next_value')}`,
          [`${entity}.${field}.${key.slice(prefix.length)}`, n + 1],
        );
      }
    });
  }

  /**
   * Runs `fn` with the secondary indexes of the entities' tables dropped and builds them again
   * afterwards, even when `fn` fails (a missing index would also come back with the next migrate).
   * Bulk loading a million rows this way is several times faster than keeping nine indexes up to
   * date row by row; a unique index built at the end still refuses duplicates. The indexes are
   * the metadata's own (the table model of the database's dialect).
   */
  async withoutIndexes(entities: readonly string[], fn: () => Promise<void>): Promise<void> {
    const db = this.w.db;
    const d = DIALECTS[db.kind];
    const indexes = entities.flatMap((name) => {
      const t = tableDef(this.meta.entities[name], d);
      return t.indexes.map((ix) => ({ table: t.name, ix }));
    });
    await db.transaction(async (tx) => {
      for (const { ix } of indexes) await tx.run(`DROP INDEX IF EXISTS ${d.quote(ix.name)}`);
    });
    try {
      await fn();
      await this.w.flush();
    } finally {
      await db.transaction(async (tx) => {
        for (const { table, ix } of indexes) await tx.run(d.createIndex(table, ix));
      });
    }
  }

  /**
   * Runs `fn`, writing what it buffers in batches of BATCH_ROWS rows: `fn` awaits `tick()` after
   * each row it writes. An error leaves the rows of the open batch unwritten and is rethrown.
   */
  async batched(fn: (tick: () => Promise<void> | undefined) => Promise<void>): Promise<void> {
    const w = this.w;
    await fn(() => (w.buffered >= BATCH_ROWS ? w.flush() : undefined));
    await w.flush();
  }
}

/** Weighted pick of an index. */
export function weighted(r: Rng, weights: readonly number[], total = weights.reduce((a, b) => a + b, 0)): number {
  let x = r.next() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/**
 * `n` indexes into `weights` in exact proportions (largest remainder; every index at least once
 * when n allows), shuffled: statuses for a list of rows.
 */
export function quota(r: Rng, n: number, weights: readonly number[]): Uint8Array {
  let counts = allocate(n, weights);
  if (n >= weights.length && counts.some((c) => c === 0)) {
    counts = counts.map((c) => Math.max(1, c));
    // take the extra rows back from the largest shares
    let extra = counts.reduce((a, b) => a + b, 0) - n;
    while (extra > 0) {
      const i = counts.indexOf(Math.max(...counts));
      counts[i]--;
      extra--;
    }
  }
  const out = new Uint8Array(n);
  let k = 0;
  counts.forEach((c, i) => out.fill(i, k, (k += c)));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    const t = out[i];
    out[i] = out[j];
    out[j] = t;
  }
  return out;
}

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** The four supplier x warehouse combinations, sup01 in PDC01 first. */
export const COMBOS = [
  { supplier: S1, warehouse: W1 },
  { supplier: S2, warehouse: W1 },
  { supplier: S1, warehouse: W2 },
  { supplier: S2, warehouse: W2 },
] as const;
export type Combo = (typeof COMBOS)[number];

/** Usual split of supplier-and-warehouse scoped rows: plenty in PDC01 for both suppliers, some in PDC02. */
export const COMBO_WEIGHTS = [45, 30, 12.5, 12.5] as const;
