/**
 * The generic engine: list, get, create, update, delete and actions for every entity, driven by
 * the compiled metadata. Each write is one transaction that also writes its audit rows; the caller's
 * permission and row scope are applied to every statement. No entity is named in this file.
 */
import { codeLabelKey, type CompiledAction, type CompiledEntity, type CompiledMetadata } from '../../codegen/runtime/model.ts';
import { transitionRefusal } from '../../codegen/runtime/transition-refusal.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { SchemaValidator, type FieldErrors } from '../../codegen/runtime/validation.ts';
import { quote, type Dialect } from '../../codegen/runtime/dialect.ts';
import type { Db, Queryable } from '../db/types.ts';
import { dbErrorKind } from '../db/types.ts';
import type { Principal } from './principal.ts';
import { AppError, conflict, forbidden, notFound, validationFailed, badRequest, unauthorized } from './errors.ts';
import { assertWarehouseAllows, operationGrant, grantOf, scopeOf, toStored, type SqlPart } from './access.ts';
import { COUNT_LOOKAHEAD, parseListQuery, tableSource } from './query.ts';
import { sqliteTrigramProbe, type TrigramProbe } from '../db/trigram.ts';
import { fieldOf, selectFields, selectList, toRecord } from './records.ts';
import { personNameColumns, personNameSql } from './person-names.ts';
import { pageTotal } from './list-json.ts';
import { holdsUserId, personNameField, personNameKey } from '../../codegen/runtime/person-name.ts';
import { emitMessages } from '../outbox/emit.ts';
import { recordChartSums } from '../home/chart-sums.ts';
import type {
  ActionContext,
  ActionOutcome,
  CollectionContext,
  FileResult,
  HandlerServices,
  PrepareContext,
  RecordFault,
  UploadedFile,
} from './handler-types.ts';
import { HookRunner, type HookTable } from './hooks.ts';
import { lookupErrors, type LookupScope } from './lookups.ts';

type Rec = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHandler = (ctx: any) => unknown;
export type HandlerTable = Record<string, AnyHandler>;

/** columns the engine writes itself: a client may send them back unchanged, never change them */
const SYSTEM_WRITABLE_IGNORED = new Set(['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy']);
const UPDATE_STAMPS = new Set(['updatedAt', 'updatedBy']);
const AUDIT_ENTITY = 'auditEntry';

/**
 * `total` is exact unless `totalIsLowerBound`: then there are more than `total` rows (the count
 * stopped COUNT_LOOKAHEAD rows past the start of the page; Content-Range says `.../10000+`).
 */
export interface ListResult {
  records: Rec[];
  total: number;
  start: number;
  end: number;
  totalIsLowerBound: boolean;
}
/** The statements list() runs for a query: the page, and the bounded count (its last parameter is the cap). */
export interface ListStatements {
  page: SqlPart;
  count: SqlPart;
  /** ` FROM <table> a WHERE <scope, filter, soft delete>` with its parameters: what an aggregate over the list reads (server/home/charts.ts) */
  rows: SqlPart;
  start: number;
  end: number;
}
export interface ActionResult {
  records: Rec[];
  file?: FileResult;
  result?: unknown;
}

/**
 * The rows of a list page as records. Drivers build a row object one property at a time, which
 * for a 500-row page of 30 columns costs as much as running the query; rows fetched as arrays and
 * copied into objects by a plain loop (one property order, so one hidden class) take about half
 * the time in all (README.md, "Performance").
 */
async function pageRows(db: Queryable, sql: string, params: unknown[]): Promise<Rec[]> {
  const { columns, rows } = await db.rows(sql, params);
  const n = columns.length;
  return rows.map((a) => {
    const r: Rec = {};
    for (let i = 0; i < n; i++) r[columns[i]] = a[i];
    return r;
  });
}

export class Engine {
  readonly validator: SchemaValidator;
  readonly d: Dialect;
  private readonly trigramProbe: TrigramProbe | undefined;
  /** the lifecycle hooks of create, update and delete (metadata "hooks", server/hooks/) */
  readonly hooks: HookRunner;
  /**
   * called in the transaction of every audited write, after its audit rows, once for the records it
   * wrote (one; a bulk insert's all: insertRows) (notifications: server/home/notifications.ts)
   */
  afterAudit?: (q: Queryable, p: Principal, e: CompiledEntity, ids: number[], operation: string, now: string) => Promise<void>;

  constructor(
    readonly db: Db,
    readonly meta: CompiledMetadata,
    readonly schemas: Record<string, EntitySchemas>,
    readonly handlers: HandlerTable,
    hooks: HookTable,
  ) {
    this.validator = new SchemaValidator(meta);
    this.d = db.dialect;
    // SQLite: whether a substring search's trigram index pays (server/db/trigram.ts)
    const raw = (db as Partial<{ raw: Parameters<typeof sqliteTrigramProbe>[0] }>).raw;
    this.trigramProbe = db.dialect.name === 'sqlite' && raw ? sqliteTrigramProbe(raw, meta.app.pageSize) : undefined;
    this.hooks = new HookRunner(meta, hooks);
    const missing = Object.values(meta.entities).flatMap((e) =>
      Object.values(e.actions)
        .filter((a) => a.handler && !handlers[`${e.name}.${a.name}`])
        .map((a) => `${e.name}.${a.name}`),
    );
    if (missing.length) throw new Error(`action handlers missing: ${missing.join(', ')}`);
  }

  /** Next value of a named number series; the series lives in the database (shared by all processes, atomic in both dialects). */
  async nextNumber(q: Queryable, series: string): Promise<number> {
    const row = await q.get<{ n: number }>(
      `INSERT INTO _number_series (name, next_value) VALUES (?, 2) ON CONFLICT (name) DO UPDATE SET next_value = _number_series.next_value + 1 RETURNING next_value - 1 AS n`,
      [series],
    );
    return Number(row!.n);
  }

  entityOf(resource: string): CompiledEntity {
    const name = this.meta.resources[resource];
    if (!name) throw notFound();
    return this.meta.entities[name];
  }

  /* ------------------------------------------------------------------ scope */

  /** The read scope of the caller; throws 401/403 when reading is not allowed at all. */
  private readScope(e: CompiledEntity, p: Principal | null, op: 'read' | 'export' = 'read'): SqlPart {
    if (!p) {
      if (e.public) return { sql: '', params: [] };
      throw unauthorized();
    }
    assertWarehouseAllows(e, p);
    const scope = scopeOf(this.meta, this.d, e, p, operationGrant(e, op, p), 'a');
    if (!scope) throw forbidden();
    return scope;
  }

  private writeScope(e: CompiledEntity, p: Principal, op: 'create' | 'update' | 'delete'): SqlPart {
    assertWarehouseAllows(e, p);
    const scope = scopeOf(this.meta, this.d, e, p, operationGrant(e, op, p), 'a');
    if (!scope) throw forbidden();
    return scope;
  }

  private and(...parts: (SqlPart | null | undefined)[]): SqlPart {
    const ps = parts.filter((x): x is SqlPart => !!x && !!x.sql);
    return { sql: ps.map((x) => `(${x.sql})`).join(' AND '), params: ps.flatMap((x) => x.params) };
  }

  private whereClause(w: SqlPart): string {
    return w.sql ? ` WHERE ${w.sql}` : '';
  }

  /* ------------------------------------------------------------------ reads */

  /**
   * One page of a list and its total. The page comes first: a page shorter than asked for is the
   * last one, so its total needs no count. Otherwise the count is bounded: it reads at most
   * COUNT_LOOKAHEAD rows past the start of the page (a covering index makes that index-only), so a
   * list over a million rows never counts a million rows; beyond the bound the total is a lower
   * bound (Content-Range `0-499/10000+`), which react-admin's pagination reads as 10000.
   */
  async list(
    p: Principal | null,
    e: CompiledEntity,
    query: Rec,
    op: 'read' | 'export' = 'read',
    fixed?: SqlPart,
    fields?: readonly string[],
  ): Promise<ListResult> {
    const st = this.listStatements(p, e, query, op, fixed, fields);
    const rows = await pageRows(this.db, st.page.sql, st.page.params);
    for (const r of rows) toRecord(e, r);
    return { records: rows, ...(await pageTotal(this.db, st, rows.length)) };
  }

  /**
   * The SQL list() runs (the index-coverage test explains these plans). `fields`: a lean page's
   * fields (a screen's projection, codegen/runtime/list-projection.ts) instead of every visible one.
   */
  listStatements(
    p: Principal | null,
    e: CompiledEntity,
    query: Rec,
    op: 'read' | 'export' = 'read',
    fixed?: SqlPart,
    fields?: readonly string[],
  ): ListStatements {
    const scope = this.readScope(e, p, op);
    const q = parseListQuery(this.meta, this.d, e, query, undefined, this.trigramProbe);
    const hideDeleted: SqlPart | null =
      e.softDelete && !q.includeDeleted ? { sql: `a.${quote(e.fields[e.softDelete].column)} = ${this.d.boolLiteral(false)}`, params: [] } : null;
    const where = this.and(scope, q.where, hideDeleted, fixed);
    const from = ` FROM ${tableSource(e, 'a', q.indexDriven)}${this.whereClause(where)}`;
    return {
      page: {
        sql: `SELECT ${fields ? selectFields(e, fields) : selectList(e)}${personNameColumns(e, fields)}${from} ORDER BY ${q.orderBy} ${this.d.limitOffset(q.end - q.start + 1, q.start)}`,
        params: where.params,
      },
      // one more row than the cap tells "more than the cap" from "exactly the cap"
      count: { sql: `SELECT COUNT(*) AS n FROM (SELECT 1 AS x${from} LIMIT ?) t`, params: [...where.params, q.start + COUNT_LOOKAHEAD + 1] },
      rows: { sql: from, params: where.params },
      start: q.start,
      end: q.end,
    };
  }

  /**
   * The statements behind an export (GET /api/<resource>/export), built like list(): the caller's
   * scope under the export grant (which falls back to read), the claim-warehouse rule, the list
   * protocol's `filter` and `sort` (same checks, same 400 codes), the soft-delete rule, plus
   * `fixed`: conditions the screen imposes (stored values from metadata; an array means "in").
   * No paging. Selects `fields` (visible ones only) in that order, so rows can be read raw.
   * Runs nothing: the export runs both statements on its own read-only connection.
   */
  exportQuery(
    p: Principal,
    e: CompiledEntity,
    query: Rec,
    fields: string[],
    fixed: Rec = {},
    screenSort?: { field: string; order: 'ASC' | 'DESC' },
  ): { sql: string; countSql: string; params: unknown[]; countParams: unknown[] } {
    const scope = this.readScope(e, p, 'export');
    const q = parseListQuery(this.meta, this.d, e, { filter: query.filter, sort: query.sort }, screenSort, this.trigramProbe);
    const hideDeleted: SqlPart | null =
      e.softDelete && !q.includeDeleted ? { sql: `a.${quote(e.fields[e.softDelete].column)} = ${this.d.boolLiteral(false)}`, params: [] } : null;
    const fixedParts: SqlPart[] = Object.entries(fixed).map(([n, v]) => {
      const f = fieldOf(e, n);
      if (!f) throw new Error(`fixed filter on unknown field ${e.name}.${n}`);
      const values = Array.isArray(v) ? v : [v];
      if (!values.length) return { sql: '0 = 1', params: [] };
      return { sql: `a.${quote(f.column)} IN (${values.map(() => '?').join(', ')})`, params: values.map((x) => toStored(this.d, e, n, x)) };
    });
    const where = this.and(scope, q.where, hideDeleted, ...fixedParts);
    const from = ` FROM ${tableSource(e, 'a', q.indexDriven)}${this.whereClause(where)}`;
    const cols = fields.map((n) => {
      const f = fieldOf(e, n);
      if (!f || f.private) throw new Error(`export of unknown or private field ${e.name}.${n}`);
      if (f.type === 'ref') return this.referenceTitle(p, f.ref!, `a.${quote(f.column)}`);
      // a person is exported by name, as a reference by its title
      return { sql: holdsUserId(f) ? personNameSql(`a.${quote(f.column)}`) : `a.${quote(f.column)}`, params: [] };
    });
    // the select list's parameters come before the WHERE clause's
    return {
      sql: `SELECT ${cols.map((c) => c.sql).join(', ') || '1'}${from} ORDER BY ${q.orderBy}`,
      countSql: `SELECT COUNT(*) AS n${from}`,
      params: [...cols.flatMap((c) => c.params), ...where.params],
      countParams: where.params,
    };
  }

  /**
   * A reference shown as the referenced record's title field (its id when the caller cannot read
   * that record): a correlated subquery under the target's read scope, as text.
   */
  private referenceTitle(p: Principal, targetName: string, idSql: string): SqlPart {
    const target = this.meta.entities[targetName];
    const fallback = `CAST(${idSql} AS TEXT)`;
    let scope: SqlPart | null = null;
    try {
      assertWarehouseAllows(target, p);
      scope = scopeOf(this.meta, this.d, target, p, operationGrant(target, 'read', p), 'ref_t');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
    if (!scope) return { sql: fallback, params: [] };
    const where = this.and({ sql: `ref_t.${quote('id')} = ${idSql}`, params: [] }, scope);
    return {
      sql: `COALESCE((SELECT CAST(ref_t.${quote(target.fields[target.titleField].column)} AS TEXT) FROM ${quote(target.table)} ref_t WHERE ${where.sql}), ${fallback})`,
      params: where.params,
    };
  }

  async getOne(p: Principal | null, e: CompiledEntity, id: number): Promise<Rec> {
    const scope = this.readScope(e, p);
    const row = await this.selectById(this.db, e, id, scope);
    if (!row) throw notFound();
    return row;
  }

  /**
   * One row by id within `scope`. `lock`: the row is about to be checked and changed in this
   * transaction; on PostgreSQL it is read with a row lock (a concurrent transaction waits, then
   * reads the committed row), on SQLite the transaction already holds the write lock.
   */
  private async selectById(q: Queryable, e: CompiledEntity, id: number, scope: SqlPart | null, includePrivate = false, lock = false): Promise<Rec | undefined> {
    const where = this.and({ sql: `a.${quote('id')} = ?`, params: [id] }, scope);
    // a row read to be shown carries its people's names; a row read to be changed (private, locked) does not
    const names = includePrivate || lock ? '' : personNameColumns(e);
    const row = await q.get<Rec>(
      `SELECT ${selectList(e, 'a', includePrivate)}${names} FROM ${quote(e.table)} a${this.whereClause(where)}${lock ? this.d.forUpdate('a') : ''}`,
      where.params,
    );
    return row ? toRecord(e, row) : undefined;
  }

  /* ------------------------------------------------------------------ writes: shared parts */

  /** Inserts a row without permission checks (engine and handlers use it); returns the record. */
  async insertRow(q: Queryable, e: CompiledEntity, valuesIn: Rec, p: Principal, now: string): Promise<Rec> {
    return (await this.insertRows(q, e, [valuesIn], p, now))[0];
  }

  /**
   * Inserts rows of one entity without permission checks; returns the records in the order given.
   * Rows with the same columns go in one multi-row INSERT ... RETURNING (chunked under the
   * databases' parameter limits), their audit rows in one insert, and afterAudit runs once for all
   * of them: on PostgreSQL a statement is a round trip, and a batch of 150 lines (inbound
   * interfaces) costs a handful of them instead of a handful per line.
   */
  async insertRows(q: Queryable, e: CompiledEntity, valuesList: readonly Rec[], p: Principal, now: string): Promise<Rec[]> {
    const rows: Rec[] = [];
    for (const v of valuesList) rows.push(this.newRow(e, { ...v, ...(await this.generatedValues(q, e, p, now, v)) }, p, now));
    const records: Rec[] = new Array<Rec>(rows.length);
    const byColumns = new Map<string, number[]>();
    for (const [i, r] of rows.entries()) {
      const key = Object.keys(r).join(',');
      byColumns.set(key, [...(byColumns.get(key) ?? []), i]);
    }
    const returning = e.fieldOrder
      .filter((n) => !e.fields[n].private)
      .map((n) => `${quote(e.fields[n].column)} AS ${quote(n)}`)
      .join(', ');
    for (const [key, all] of byColumns) {
      const names = key ? key.split(',') : [];
      const perStatement = Math.max(1, Math.min(500, Math.floor(30_000 / Math.max(1, names.length))));
      for (let at = 0; at < all.length; at += perStatement) {
        const chunk = all.slice(at, at + perStatement);
        const tuple = `(${names.map(() => '?').join(', ')})`;
        const inserted = await q.all<Rec>(
          `INSERT INTO ${quote(e.table)} (${names.map((n) => quote(e.fields[n].column)).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')} RETURNING ${returning}`,
          chunk.flatMap((i) => names.map((n) => toStored(this.d, e, n, rows[i][n]))),
        );
        // both databases number the rows of one INSERT in the order of its VALUES (a sequence
        // called row by row, SQLite's next rowid); RETURNING itself promises no order
        inserted.sort((a, b) => Number(a.id) - Number(b.id));
        chunk.forEach((i, j) => (records[i] = toRecord(e, inserted[j])));
      }
    }
    const entries = records.map((r, i) => ({ id: Number(r.id), changes: Object.fromEntries(Object.keys(rows[i]).map((n) => [n, [null, rows[i][n]]])) }));
    await recordChartSums(q, this.meta, e, [], records);
    await this.audit(q, p, e, entries, 'create', now);
    return records;
  }

  /** A new row's stored values by field: the given and generated ones, the defaults, version and audit fields. */
  private newRow(e: CompiledEntity, values: Rec, p: Principal, now: string): Rec {
    const row: Rec = {};
    for (const n of e.fieldOrder) {
      const f = e.fields[n];
      if (n === 'id') continue;
      if (values[n] !== undefined) row[n] = values[n];
      else if (f.default !== undefined) row[n] = f.default;
    }
    if (e.versioned) row.version = 1;
    if (e.audit) Object.assign(row, { createdAt: now, createdBy: p.userId, updatedAt: now, updatedBy: p.userId });
    return row;
  }

  /** Updates a row by id without permission checks; bumps the version; checks it when given. */
  async updateRow(q: Queryable, e: CompiledEntity, id: number, patch: Rec, p: Principal, now: string, operation: string, expectVersion?: number): Promise<Rec> {
    const before = await this.selectById(q, e, id, null, true);
    if (!before) throw notFound();
    const changed = Object.keys(patch).filter((n) => fieldOf(e, n) && !SYSTEM_WRITABLE_IGNORED.has(n) && patch[n] !== before[n]);
    const sets = changed.map((n) => `${quote(e.fields[n].column)} = ?`);
    const params = changed.map((n) => toStored(this.d, e, n, patch[n]));
    if (e.versioned) sets.push(`${quote('version')} = ${quote('version')} + 1`);
    if (e.audit) {
      sets.push(`${quote('updated_at')} = ?`, `${quote('updated_by')} = ?`);
      params.push(now, p.userId);
    }
    if (!sets.length) return (await this.selectById(q, e, id, null))!;
    let where = `${quote('id')} = ?`;
    params.push(id);
    // the version condition makes the update itself the check: no lost update, whatever ran in between
    if (e.versioned && expectVersion !== undefined) {
      where += ` AND ${quote('version')} = ?`;
      params.push(expectVersion);
    }
    const info = await q.run(`UPDATE ${quote(e.table)} SET ${sets.join(', ')} WHERE ${where}`, params);
    if (info.changes === 0) throw conflict('error.staleVersion');
    const after = (await this.selectById(q, e, id, null))!;
    await recordChartSums(q, this.meta, e, [before], [after]);
    await this.audit(
      q,
      p,
      e,
      [{ id, changes: Object.fromEntries(changed.map((n) => [n, [e.fields[n].private ? '***' : before[n], e.fields[n].private ? '***' : patch[n]]])) }],
      operation,
      now,
    );
    return after;
  }

  /** The audit rows of one operation on one or more records (one insert), then afterAudit once for them. */
  private async audit(q: Queryable, p: Principal, e: CompiledEntity, entries: { id: number; changes: Rec }[], operation: string, now: string): Promise<void> {
    if (e.name === AUDIT_ENTITY || !entries.length) return;
    const a = this.meta.entities[AUDIT_ENTITY];
    if (!a) return;
    const mask = (changes: Rec) => Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, fieldOf(e, k)?.private ? ['***', '***'] : v]));
    const cols = ['at', 'userId', 'warehouseCode', 'resource', 'recordId', 'operation', 'changes'];
    await this.db.insertMany(
      a.table,
      cols.map((c) => a.fields[c].column),
      entries.map((x) => [now, p.userId, p.warehouse, e.resource, x.id, operation, JSON.stringify(mask(x.changes))]),
      q,
    );
    if (this.afterAudit)
      await this.afterAudit(
        q,
        p,
        e,
        entries.map((x) => x.id),
        operation,
        now,
      );
  }

  /** Field errors for refs that point to rows the caller cannot see, and for taken unique values. */
  private async checkRefsAndUniques(
    q: Queryable,
    p: Principal,
    e: CompiledEntity,
    values: Rec,
    selfId: number | null,
    knownFree?: readonly string[],
  ): Promise<void> {
    const errors: FieldErrors = {};
    for (const [n, v] of Object.entries(values)) {
      const f = fieldOf(e, n);
      if (f?.type === 'ref' && v !== null && v !== undefined) {
        const target = this.meta.entities[f.ref!];
        let ok = false;
        try {
          ok = !!(await this.selectById(q, target, Number(v), this.readScope(target, p)));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
        }
        if (!ok) errors[n] = { key: 'validation.ref' };
      }
    }
    await this.checkLookups(q, p, e, values, selfId, errors);
    for (const ix of e.indexes.filter((i) => i.unique)) {
      if (!ix.fields.some((n) => n in values)) continue;
      if (knownFree && ix.fields.length === knownFree.length && ix.fields.every((n) => knownFree.includes(n))) continue;
      const current = selfId !== null ? await this.selectById(q, e, selfId, null) : undefined;
      const vals = ix.fields.map((n) => (n in values ? values[n] : current?.[n]));
      if (vals.some((v) => v === null || v === undefined)) continue;
      const where = ix.fields.map((n) => `${quote(e.fields[n].column)} = ?`).join(' AND ') + (selfId !== null ? ` AND ${quote('id')} <> ?` : '');
      const hit = await q.get(`SELECT 1 AS x FROM ${quote(e.table)} WHERE ${where}`, [
        ...ix.fields.map((n, i) => toStored(this.d, e, n, vals[i])),
        ...(selfId !== null ? [selfId] : []),
      ]);
      if (hit) for (const n of ix.fields) if (n in values) errors[n] = { key: 'validation.unique' };
    }
    if (Object.keys(errors).length) {
      const onlyUnique = Object.values(errors).every((x) => x.key === 'validation.unique');
      throw onlyUnique ? conflict('error.duplicate', {}, errors) : validationFailed(errors);
    }
  }

  /** The lookups of the caller (server/engine/lookups.ts): the target read within the caller's read scope. */
  private lookupScope(p: Principal): LookupScope {
    return { meta: this.meta, readScope: (target) => this.readScope(target, p), and: (...parts) => this.and(...parts) };
  }

  /** metadata `lookup`s among written values (lookups.ts); the stored record fills the fields an update leaves out; a found lookup's `fills` are written into `values`. */
  private async checkLookups(q: Queryable, p: Principal, e: CompiledEntity, values: Rec, selfId: number | null, errors: FieldErrors): Promise<void> {
    const found = await lookupErrors(
      q,
      this.lookupScope(p),
      e.fields,
      values,
      async () => (selfId !== null ? this.selectById(q, e, selfId, null) : undefined),
      values,
    );
    for (const [n, x] of Object.entries(found)) errors[n] ??= x;
  }

  /**
   * Runs fn in one write transaction (db.transaction: SQLite IMMEDIATE, PostgreSQL with row locks
   * and a retry on serialization failures); a UNIQUE violation that slipped past the checks (two
   * processes inserting the same value at once) is a 409.
   */
  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(fn);
    } catch (err) {
      if (dbErrorKind(err) === 'unique') throw conflict('error.duplicate');
      throw err;
    }
  }

  private assertObject(body: unknown): Rec {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('error.badRequest');
    return body as Rec;
  }

  /** Values a supplier-scoped caller cannot choose: the scope fields are theirs. */
  private forcedValues(e: CompiledEntity, p: Principal): Rec {
    const out: Rec = {};
    if (this.meta.access.profiles[p.profile].supplierScoped && p.role !== 'admin') for (const f of e.scope.supplierFields) out[f] = p.supplierCode;
    if (e.scope.warehouseField) out[e.scope.warehouseField] = p.warehouse;
    return out;
  }

  /** Values a new row takes from the session and from number series (metadata: sessionDefault, autoNumber). */
  private async generatedValues(q: Queryable, e: CompiledEntity, p: Principal, now: string, given: Rec): Promise<Rec> {
    const out: Rec = {};
    const session: Record<string, unknown> = {
      userId: p.userId,
      userName: p.name,
      supplierCode: p.supplierCode ?? p.departmentId,
      supplierName: p.departmentName,
      warehouseCode: p.warehouse,
      now,
    };
    for (const n of e.fieldOrder) {
      const f = e.fields[n];
      if (given[n] !== undefined && given[n] !== null) continue;
      if (f.sessionDefault) out[n] = session[f.sessionDefault] ?? null;
      if (f.autoNumber) {
        const day = now.slice(0, 10).replace(/-/g, '');
        const series = `${e.name}.${n}.${day}`;
        const next = await this.nextNumber(q, series);
        out[n] = `${f.autoNumber.prefix}${day}${String(next).padStart(f.autoNumber.digits, '0')}`;
      }
    }
    return out;
  }

  /* ------------------------------------------------------------------ create / update / delete */

  async create(p: Principal, e: CompiledEntity, bodyIn: unknown): Promise<Rec> {
    const body = this.assertObject(bodyIn);
    const scope = this.writeScope(e, p, 'create');
    void scope;
    const forced = this.forcedValues(e, p);
    const errors: FieldErrors = {};
    const data: Rec = {};
    for (const [k, v] of Object.entries(body)) {
      const f = fieldOf(e, k);
      if (!f || f.private) errors[k] = { key: 'validation.unknownField' };
      else if (k in forced) continue;
      else if (f.system || f.readOnly) {
        if (v !== null && v !== undefined) errors[k] = { key: 'validation.readOnly' };
      } else data[k] = v;
    }
    if (Object.keys(errors).length) throw validationFailed(errors);
    const invalid = this.validator.validate(this.schemas[e.name].create, data);
    if (invalid) throw validationFailed(invalid);
    const now = new Date().toISOString();
    return this.tx(async (q) => {
      const svc = this.services(q, p, now);
      const given = { ...data, ...forced };
      await this.checkRefsAndUniques(q, p, e, given, null);
      const values = await this.hooks.beforeWrite(svc, e, 'create', null, given);
      const record = await this.insertRow(q, e, values, p, now);
      await this.hooks.afterWrite(svc, e, 'create', null, record);
      return record;
    });
  }

  /** Loads a row the caller may write, or 404 (existence is not revealed). */
  private async loadForWrite(q: Queryable, p: Principal, e: CompiledEntity, id: number, op: 'update' | 'delete'): Promise<Rec> {
    const scope = this.writeScope(e, p, op);
    const row = await this.selectById(q, e, id, scope, true, true);
    if (!row) throw notFound();
    return row;
  }

  private assertState(e: CompiledEntity, row: Rec, when: Record<string, string[]>, code: string): void {
    for (const [f, codes] of Object.entries(when)) if (!codes.includes(String(row[f]))) throw conflict(code, { status: String(row[f]) });
  }

  async update(p: Principal, e: CompiledEntity, id: number, bodyIn: unknown): Promise<Rec> {
    const body = this.assertObject(bodyIn);
    const now = new Date().toISOString();
    return this.tx(async (q) => {
      const row = await this.loadForWrite(q, p, e, id, 'update');
      this.assertNotDeleted(e, row);
      const forced = this.forcedValues(e, p);
      const errors: FieldErrors = {};
      const data: Rec = {};
      for (const [k, v] of Object.entries(body)) {
        const f = fieldOf(e, k);
        // a person's name sent back beside its user ID is shown text, not a field: nothing to write
        if (!f && personNameField(e, k)) continue;
        if (!f || f.private) {
          errors[k] = { key: 'validation.unknownField' };
          continue;
        }
        if (k === 'version') {
          data.version = v;
          continue;
        }
        // updatedAt/updatedBy of a stale copy differ because somebody else saved: that is the 409
        // of the version check below, not a field error
        if (UPDATE_STAMPS.has(k) && e.versioned && body.version !== row.version) continue;
        // a client sends the whole record back: unchanged read-only values are fine, changes are
        // refused (the engine's own columns included: id, createdAt, ...), never silently ignored
        if (SYSTEM_WRITABLE_IGNORED.has(k) || f.readOnly || f.createOnly || k in forced) {
          const same = v === row[k] || (v === null && row[k] === undefined);
          if (!same) errors[k] = { key: 'validation.readOnly' };
          continue;
        }
        data[k] = v;
      }
      if (Object.keys(errors).length) throw validationFailed(errors);
      const invalid = this.validator.validate(this.schemas[e.name].update, data);
      if (invalid) throw validationFailed(invalid);
      this.assertState(e, row, e.editableWhen, 'error.editNotAllowed');
      const { version, ...patch } = data;
      if (e.versioned && version !== row.version) throw conflict('error.staleVersion');
      await this.checkRefsAndUniques(q, p, e, patch, id);
      const svc = this.services(q, p, now);
      const values = await this.hooks.beforeWrite(svc, e, 'update', row, patch);
      const record = await this.updateRow(q, e, id, values, p, now, 'update', e.versioned ? Number(version) : undefined);
      await this.hooks.afterWrite(svc, e, 'update', row, record);
      return record;
    });
  }

  /** Deletes (or soft-deletes) a row; hard deletes take the child rows that inherit its scope along. Returns the record and the storage names of removed files. */
  async remove(p: Principal, e: CompiledEntity, id: number): Promise<{ record: Rec; removedFiles: string[] }> {
    const now = new Date().toISOString();
    return this.tx(async (q) => {
      const row = await this.loadForWrite(q, p, e, id, 'delete');
      this.assertNotDeleted(e, row);
      this.assertState(e, row, e.deletableWhen, 'error.deleteNotAllowed');
      await this.fileParent(q, e, row);
      const visible = (await this.selectById(q, e, id, null))!;
      const svc = this.services(q, p, now);
      await this.hooks.beforeWrite(svc, e, 'delete', row, {});
      let removedFiles: string[] = [];
      if (e.softDelete) await this.updateRow(q, e, id, { [e.softDelete]: true }, p, now, 'delete');
      else removedFiles = await this.deleteCascade(q, p, e, id, now);
      await this.hooks.afterWrite(svc, e, 'delete', row, null);
      return { record: visible, removedFiles };
    });
  }

  private async deleteCascade(q: Queryable, p: Principal, e: CompiledEntity, id: number, now: string): Promise<string[]> {
    const files: string[] = [];
    for (const child of Object.values(this.meta.entities)) {
      if (!child.scope.parent || child.fields[child.scope.parent].ref !== e.name) continue;
      const ids = (
        await q.all<{ id: number }>(`SELECT ${quote('id')} AS id FROM ${quote(child.table)} WHERE ${quote(child.fields[child.scope.parent].column)} = ?`, [id])
      ).map((r) => Number(r.id));
      for (const cid of ids) files.push(...(await this.deleteCascade(q, p, child, cid, now)));
    }
    const full = (await this.selectById(q, e, id, null, true))!;
    if (e.file && typeof full.storageName === 'string') files.push(full.storageName);
    await q.run(`DELETE FROM ${quote(e.table)} WHERE ${quote('id')} = ?`, [id]);
    await recordChartSums(q, this.meta, e, [full], []);
    await this.audit(
      q,
      p,
      e,
      [{ id, changes: Object.fromEntries(e.fieldOrder.filter((n) => !e.fields[n].system).map((n) => [n, [full[n], null]])) }],
      'delete',
      now,
    );
    return files;
  }

  /* ------------------------------------------------------------------ files */

  /**
   * Records an uploaded file (already checked and stored under `storageName`). A file of the same
   * name under the same owner (the entity's overwriteKey) is refused with error.fileExists unless
   * `overwrite`, in which case the row is replaced. Returns the record and the storage name the
   * row no longer uses (to remove after commit).
   */
  async recordFile(
    p: Principal,
    e: CompiledEntity,
    bodyIn: unknown,
    file: { fileName: string; fileSize: number; mimeType: string },
    storageName: string,
    overwrite: boolean,
  ): Promise<{ record: Rec; replaced: string | null }> {
    const body = this.assertObject(bodyIn);
    this.writeScope(e, p, 'create');
    const errors: FieldErrors = {};
    const data: Rec = {};
    for (const [k, v] of Object.entries(body)) {
      const f = fieldOf(e, k);
      if (!f || f.private || f.system || f.readOnly) errors[k] = { key: 'validation.unknownField' };
      else data[k] = v;
    }
    if (Object.keys(errors).length) throw validationFailed(errors);
    const invalid = this.validator.validate(this.schemas[e.name].create, data);
    if (invalid) throw validationFailed(invalid);
    const now = new Date().toISOString();
    const values: Rec = { ...data, ...this.forcedValues(e, p), fileName: file.fileName, fileSize: file.fileSize, storageName };
    if (e.fields.mimeType) values.mimeType = file.mimeType;
    if (e.fields.uploader) values.uploader = p.name;
    if (e.fields.uploadedAt) values.uploadedAt = now;
    return this.tx(async (q) => {
      await this.checkRefsAndUniques(q, p, e, Object.fromEntries(Object.entries(data).filter(([k]) => fieldOf(e, k)?.type === 'ref')), null);
      // the parent row is locked first: two uploads of the same name under one parent take turns
      // (PostgreSQL), so the second sees the first and asks whether to overwrite
      if (e.scope.parent && values[e.scope.parent] !== undefined && values[e.scope.parent] !== null) {
        const parent = this.meta.entities[e.fields[e.scope.parent].ref!];
        const parentRow = await this.selectById(q, parent, Number(values[e.scope.parent]), null, false, true);
        if (parentRow) this.assertParentState(e, parent, parentRow);
      }
      const keys = [...e.file!.overwriteKey, 'fileName'];
      const where = keys.map((k) => `${quote(e.fields[k].column)} = ?`).join(' AND ');
      const existing = await q.get<{ id: number; storageName: string }>(
        `SELECT ${quote('id')} AS id, ${quote(e.fields.storageName.column)} AS "storageName" FROM ${quote(e.table)} WHERE ${where}`,
        keys.map((k) => toStored(this.d, e, k, values[k])),
      );
      if (existing && !overwrite) throw conflict('error.fileExists', { fileName: file.fileName });
      // an overwrite is an update of the existing row, a new file a create: each with its hooks
      const svc = this.services(q, p, now);
      const before = existing ? ((await this.selectById(q, e, Number(existing.id), null, true)) ?? null) : null;
      const op = before ? 'update' : 'create';
      const toWrite = await this.hooks.beforeWrite(svc, e, op, before, values);
      const record = before ? await this.updateRow(q, e, Number(existing!.id), toWrite, p, now, 'overwrite') : await this.insertRow(q, e, toWrite, p, now);
      await this.hooks.afterWrite(svc, e, op, before, record);
      const result = { record, replaced: before ? existing!.storageName : null };
      await this.applyUploadAction(q, p, e, values, file.fileName, now);
      return result;
    });
  }

  /**
   * metadata file.onUpload: the parent's declared action follows an upload in the same
   * transaction (e.g. a hazardous-chemicals receipt becomes "uploaded"), when the caller may run
   * it and the parent's state allows it; otherwise only the listed parent fields are refreshed.
   */
  private async applyUploadAction(q: Queryable, p: Principal, e: CompiledEntity, values: Rec, fileName: string, now: string): Promise<void> {
    const ou = e.file?.onUpload;
    if (!ou || !e.scope.parent) return;
    const parent = this.meta.entities[e.fields[e.scope.parent].ref!];
    const a = parent.actions[ou.action];
    const row = await this.selectById(q, parent, Number(values[e.scope.parent]), null, true, true);
    if (!row) throw notFound();
    this.assertParentTakesFiles(parent, a, row);
    const extra = Object.fromEntries(Object.entries(ou.setParent).map(([k, v]) => [k, v === '$fileName' ? fileName : v]));
    const allowed = !!grantOf(a.allow, p) && (!a.from || !a.statusField || a.from.includes(String(row[a.statusField])));
    if (allowed) await this.transition(q, parent, a, p, now, {}, row, extra);
    else if (Object.keys(extra).length) await this.updateRow(q, parent, Number(row.id), extra, p, now, 'upload');
  }

  /**
   * Files follow their parent's state as actions do (file.onUpload): a file may be added, replaced
   * or deleted while the parent is in a state the upload action starts from, or the state it leads
   * to (a replacement before the next step); after that the evidence is frozen (a confirmed
   * hazardous-chemicals receipt keeps its signed document). 409 error.illegalTransition saying so (error.filesFrozen).
   */
  private assertParentTakesFiles(parent: CompiledEntity, a: CompiledAction, row: Rec): void {
    if (!a.statusField) return;
    const status = String(row[a.statusField]);
    if ((a.from ?? []).includes(status) || (a.to ?? []).includes(status) || (!a.from && !a.to)) return;
    // the upload's action is an engine step the user never sees: the message names the parent's status, not the step
    const table = parent.fields[a.statusField]?.codeTable;
    const detail = { record: this.labelOf(parent, row), statusLabel: table ? codeLabelKey(table, status) : status };
    throw conflict('error.illegalTransition', { action: a.name, status, id: Number(row.id), ...detail }, undefined, 'error.filesFrozen');
  }

  /**
   * 409 for an action the record's state does not allow (any more: another user or process changed
   * it). An action with a message of its own keeps it (error.orderAlreadyConfirmed ...); otherwise
   * the code stays error.illegalTransition and the message says which record, its status now and
   * the action (error.statusChanged), instead of a bare "not allowed in the current status".
   */
  private stateRefusal(e: CompiledEntity, a: CompiledAction, row: Rec): AppError {
    const status = String(row[a.statusField!]);
    const args = { action: a.name, status, id: Number(row.id) };
    const refusal = transitionRefusal(a, status);
    if (!refusal.messageKey) return conflict(refusal.code, args);
    const table = e.fields[a.statusField!]?.codeTable;
    // the record by its identifyBy fields: a stale ship names the line (order/item/part), not only its order
    const detail = { record: this.labelOf(e, row), statusLabel: table ? codeLabelKey(table, status) : status, actionLabel: a.labelKey };
    return conflict(refusal.code, { ...args, ...detail }, undefined, refusal.messageKey);
  }

  /**
   * Files follow their parent's state (metadata file.parentStates) and a soft-deleted parent is
   * read-only: its files can be neither added, replaced nor deleted. 409.
   */
  private assertParentState(e: CompiledEntity, parent: CompiledEntity, row: Rec): void {
    if (parent.softDelete && row[parent.softDelete] === true) throw conflict('error.recordDeleted', { id: Number(row.id) });
    for (const [f, codes] of Object.entries(e.file?.parentStates ?? {}))
      if (!codes.includes(String(row[f]))) throw conflict('error.fileNotAllowed', { status: String(row[f]) });
  }

  /** The parent row of a file row: locked, for the state gates (file.onUpload, file.parentStates, soft delete). */
  private async fileParent(q: Queryable, e: CompiledEntity, fileRow: Rec): Promise<void> {
    if (!e.file || !e.scope.parent) return;
    const parent = this.meta.entities[e.fields[e.scope.parent].ref!];
    const row = await this.selectById(q, parent, Number(fileRow[e.scope.parent]), null, true, true);
    if (!row) return;
    this.assertParentState(e, parent, row);
    const ou = e.file.onUpload;
    if (ou) this.assertParentTakesFiles(parent, parent.actions[ou.action], row);
  }

  /** A soft-deleted row is read-only: no edit, no action, no second delete (409 error.recordDeleted). */
  private assertNotDeleted(e: CompiledEntity, row: Rec): void {
    if (e.softDelete && row[e.softDelete] === true) throw conflict('error.recordDeleted', { id: Number(row.id) });
  }

  /** The stored file behind a visible record of a file entity. */
  async fileOf(p: Principal, e: CompiledEntity, id: number): Promise<{ fileName: string; mimeType: string; storageName: string }> {
    const scope = this.readScope(e, p);
    const row = await this.selectById(this.db, e, id, scope, true);
    if (!row || !e.file) throw notFound();
    return { fileName: String(row.fileName), mimeType: String(row.mimeType ?? 'application/octet-stream'), storageName: String(row.storageName) };
  }

  /* ------------------------------------------------------------------ permission checks before a body is read */

  /** Throws 401/403 unless the caller may create rows of `e` (uploads check this before reading the file). */
  assertMayCreate(p: Principal, e: CompiledEntity): void {
    this.writeScope(e, p, 'create');
  }

  /** Throws 404/403 unless the action exists for clients and the caller may run it (in this warehouse). */
  assertMayRun(p: Principal, e: CompiledEntity, name: string): void {
    const a = e.actions[name];
    if (!a || a.internal) throw notFound();
    assertWarehouseAllows(e, p);
    if (!grantOf(a.allow, p)) throw forbidden();
  }

  /* ------------------------------------------------------------------ inbound interfaces (server/inbound/) */

  /**
   * The checks a screen's write makes of the values it sets (refs, lookups, unique values): the same
   * 400/409. `knownFree`: the fields of a unique index the caller has just looked up in this
   * transaction and found free (an inbound business key); its check would only repeat that query,
   * and a record another transaction adds meanwhile meets the index at the insert anyway.
   */
  checkWrite(q: Queryable, p: Principal, e: CompiledEntity, values: Rec, selfId: number | null, knownFree?: readonly string[]): Promise<void> {
    return this.checkRefsAndUniques(q, p, e, values, selfId, knownFree);
  }

  /** What handlers and hooks get inside a transaction. */
  servicesFor(q: Queryable, p: Principal, now: string): HandlerServices {
    return this.services(q, p, now);
  }

  /** A declared transition of one record (no input), audited as the action; the caller has locked and checked the row. */
  applyTransition(q: Queryable, e: CompiledEntity, a: CompiledAction, p: Principal, now: string, row: Rec): Promise<Rec> {
    return this.transition(q, e, a, p, now, {}, row);
  }

  /* ------------------------------------------------------------------ actions */

  private services(q: Queryable, p: Principal, now: string): HandlerServices {
    const entity = (name: string) => {
      const e = this.meta.entities[name];
      if (!e) throw new Error(`unknown entity ${name}`);
      return e;
    };
    return {
      db: q,
      meta: this.meta,
      principal: p,
      now,
      fail: (status, code, args) => {
        throw new AppError(status, code, args ?? {});
      },
      insert: (name, values) => this.insertRow(q, entity(name), values, p, now),
      update: (name, id, patch) => this.updateRow(q, entity(name), id, patch, p, now, 'update'),
      nextNumber: (series) => this.nextNumber(q, series),
      // the entity's validate hook and its lookups, as a create or update through the API would check them
      validateRecord: async (name, operation, before, values) => {
        const e = entity(name);
        const written = operation === 'delete' ? {} : values;
        const errors = { ...(await lookupErrors(q, this.lookupScope(p), e.fields, written, async () => before ?? undefined)) };
        Object.assign(errors, await this.hooks.fieldErrors(this.services(q, p, now), e, operation, before, HookRunner.after(e, operation, before, values)));
        return Object.keys(errors).length ? errors : null;
      },
    };
  }

  /** The generic transition of one record. */
  private transition(
    q: Queryable,
    e: CompiledEntity,
    a: CompiledAction,
    p: Principal,
    now: string,
    input: Rec,
    row: Rec,
    extra: Rec = {},
    expectVersion?: number,
  ): Promise<Rec> {
    const patch: Rec = {};
    if (a.statusField && a.to) patch[a.statusField] = a.to.length > 1 ? input.target : a.to[0];
    for (const n of a.inputOrder) if (n !== 'target' && fieldOf(e, n) && !e.fields[n].system && input[n] !== undefined) patch[n] = input[n];
    // $user is the user ID (who did it, as in the audit trail); $userName the person's name (shown on documents)
    for (const [k, v] of Object.entries(a.set)) patch[k] = v === '$now' ? now : v === '$user' ? p.userId : v === '$userName' ? p.name : v;
    Object.assign(patch, extra);
    return this.updateRow(q, e, Number(row.id), patch, p, now, `action:${a.name}`, expectVersion);
  }

  /** A record's name in messages: its identifyBy fields (default: the title field) joined with '/'. */
  labelOf(e: CompiledEntity, r: Rec): string {
    return (e.identifyBy ?? [e.titleField]).map((n) => String(r[n] ?? '')).join('/');
  }

  /**
   * The input of each target record of an action with per-record inputs: the body's shared values
   * with the record's `perRecord` entry over them, checked against the record input schema.
   * Malformed entries (an id not among the targets, an input that is not per record) are a 400 at
   * once; a record whose input breaks a rule is reported with the record (see recordInputErrors).
   * Field errors are keyed `perRecord.<id>.<input>`, or `<input>` for a call naming one record.
   */
  private recordInputs(
    e: CompiledEntity,
    a: CompiledAction,
    body: Rec,
    ids: number[],
    single: boolean,
  ): { inputs: Map<number, Rec>; errors: Map<number, FieldErrors> } {
    const inputs = new Map<number, Rec>();
    const errors = new Map<number, FieldErrors>();
    const schema = this.schemas[e.name].recordInputs?.[a.name];
    if (!a.perRecord || !schema) {
      for (const id of ids) inputs.set(id, body);
      return { inputs, errors };
    }
    const { ids: _ids, perRecord, version: _v, ...shared } = body;
    const entries = (perRecord ?? {}) as Rec;
    const own = new Set(a.perRecord.fields);
    const targets = new Set(ids.map(String));
    const malformed: FieldErrors = {};
    for (const [k, v] of Object.entries(entries)) {
      if (!targets.has(k)) malformed[`perRecord.${k}`] = { key: 'validation.unknownField' };
      else if (!v || typeof v !== 'object' || Array.isArray(v)) malformed[`perRecord.${k}`] = { key: 'validation.invalid' };
      else for (const f of Object.keys(v)) if (!own.has(f)) malformed[`perRecord.${k}.${f}`] = { key: 'validation.unknownField' };
    }
    if (Object.keys(malformed).length) throw validationFailed(malformed);
    for (const id of ids) {
      const merged: Rec = { ...shared, ...((entries[String(id)] as Rec | undefined) ?? {}) };
      inputs.set(id, merged);
      const invalid = this.validator.validate(schema, merged);
      if (invalid) errors.set(id, single ? invalid : Object.fromEntries(Object.entries(invalid).map(([f, fe]) => [`perRecord.${id}.${f}`, fe])));
    }
    if (single && errors.size) throw validationFailed([...errors.values()][0]);
    return { inputs, errors };
  }

  /** 400 naming every record whose own input is invalid, with the field errors of their grid cells. */
  private recordInputErrors(e: CompiledEntity, rows: Rec[], errors: Map<number, FieldErrors>): AppError {
    const bad = rows.filter((r) => errors.has(Number(r.id)));
    return new AppError(
      400,
      'error.recordInputInvalid',
      { records: bad.map((r) => this.labelOf(e, r)).join(', ') },
      Object.assign({}, ...bad.map((r) => errors.get(Number(r.id))!)),
    );
  }

  /** A handler's refusal naming the records at fault (ActionContext.failRecords). */
  private recordFaults(e: CompiledEntity, status: number, code: string, faults: RecordFault<Rec>[], single: boolean): AppError {
    const items = faults.map((f) => `${this.labelOf(e, f.record)}${f.note !== undefined ? ` (${f.note})` : ''}`).join(', ');
    const fieldErrors: FieldErrors = {};
    for (const f of faults) if (f.field) fieldErrors[single ? f.field : `perRecord.${Number(f.record.id)}.${f.field}`] = f.error ?? { key: code };
    return new AppError(status, code, { items }, Object.keys(fieldErrors).length ? fieldErrors : undefined);
  }

  /**
   * Runs an action on the records `ids` (one for the single form, several for bulk, none for a
   * collection action). All records are loaded within the caller's scope; all changes happen in
   * one transaction; any failure rolls everything back.
   */
  async action(p: Principal, e: CompiledEntity, name: string, ids: number[] | null, bodyIn: unknown, file?: UploadedFile): Promise<ActionResult> {
    const a = e.actions[name];
    if (!a || a.internal) throw notFound();
    assertWarehouseAllows(e, p);
    const grant = grantOf(a.allow, p);
    if (!grant) throw forbidden();
    const body = this.assertObject(bodyIn ?? {});
    const single = ids !== null && ids.length === 1 && !('ids' in body);
    const invalid = this.validator.validate(this.schemas[e.name].actions[name], body);
    if (invalid) throw validationFailed(invalid);
    const input = body;
    const targetIds: number[] = a.collection ? ((input.ids as number[] | undefined) ?? []) : (ids ?? (input.ids as number[] | undefined) ?? []);
    if (!a.collection && !single && !a.bulk) throw badRequest('error.onlyOneRecord');
    if (!a.collection && targetIds.length === 0) throw badRequest('error.noRecordSelected');
    const perRecord = a.collection ? null : this.recordInputs(e, a, input, [...new Set(targetIds)], single);
    const inputOf = (r: Rec): Rec => perRecord?.inputs.get(Number(r.id)) ?? input;
    const now = new Date().toISOString();
    let outcome: ActionOutcome<Rec> | undefined;
    let result: unknown;
    // database-free work (parsing an upload) before the transaction: never under the write lock
    const handler = this.handlers[`${e.name}.${a.name}`] as { prepare?: (ctx: PrepareContext<Rec>) => unknown } | undefined;
    if ((a.collection || a.handler) && handler?.prepare)
      await handler.prepare({ meta: this.meta, principal: p, entity: e, action: a, input, ...(file ? { file } : {}) });
    await this.tx(async (q) => {
      const svc = this.services(q, p, now);
      outcome = undefined;
      // lookup inputs (a registration's supplier code) name existing records, as fields do
      const inputErrors = await lookupErrors(q, this.lookupScope(p), a.input, input, async () => undefined);
      if (Object.keys(inputErrors).length) throw validationFailed(inputErrors);
      if (a.collection) {
        const ctx: CollectionContext<Rec> = { ...svc, entity: e, action: a, input, ...(file ? { file } : {}) };
        result = await this.handlers[`${e.name}.${a.name}`](ctx);
        return;
      }
      const readScope = this.readScope(e, p);
      const actionScope = scopeOf(this.meta, this.d, e, p, grant, 'a');
      if (!actionScope) throw forbidden();
      // every record is locked before any is checked, in id order (two bulk actions over the
      // same records never wait for each other in a circle); the checks then see committed rows
      const unique = [...new Set(targetIds)];
      // action.supplierFields: of the suppliers a row names, only these may run it (who ships a line)
      const actorScope = a.supplierFields ? scopeOf(this.meta, this.d, e, p, grant, 'a', 0, a.supplierFields) : null;
      const byId = new Map<number, Rec>();
      for (const id of [...unique].sort((x, y) => x - y)) {
        const row = await this.selectById(q, e, id, this.and(readScope, actionScope), true, true);
        if (!row) throw notFound();
        if (actorScope && !(await this.selectById(q, e, id, this.and(actorScope)))) throw forbidden('error.notActingSupplier', { items: this.labelOf(e, row) });
        byId.set(id, row);
      }
      const rows = unique.map((id) => byId.get(id)!);
      if (perRecord?.errors.size) throw this.recordInputErrors(e, rows, perRecord.errors);
      for (const row of rows) {
        this.assertNotDeleted(e, row);
        if (a.from && a.statusField && !a.from.includes(String(row[a.statusField]))) throw this.stateRefusal(e, a, row);
      }
      const expectVersion = single && e.versioned && typeof input.version === 'number' ? input.version : undefined;
      if (expectVersion !== undefined && rows[0].version !== expectVersion) throw conflict('error.staleVersion');
      if (a.handler) {
        const ctx: ActionContext<Rec, Rec> = {
          ...svc,
          entity: e,
          action: a,
          records: rows,
          input,
          ...(file ? { file } : {}),
          inputOf,
          labelOf: (record) => this.labelOf(e, record),
          failRecords: (status, code, faults) => {
            throw this.recordFaults(e, status, code, faults, single);
          },
          transition: (record, patch) => this.transition(q, e, a, p, now, inputOf(record), record, patch),
        };
        const out = (await this.handlers[`${e.name}.${a.name}`](ctx)) as Rec[] | ActionOutcome<Rec>;
        outcome = Array.isArray(out) ? { records: out } : out;
      } else {
        const records: Rec[] = [];
        for (const r of rows) records.push(await this.transition(q, e, a, p, now, inputOf(r), r, {}, expectVersion));
        outcome = { records };
      }
      // the outbox messages metadata/interfaces.json declares for this action: same transaction
      await emitMessages(q, this.meta, e, a, outcome.records, p, now);
    });
    if (a.collection) return { records: [], result };
    const records = (outcome?.records ?? []).map((r) => {
      const out: Rec = {};
      for (const n of e.fieldOrder) if (!e.fields[n].private) out[n] = r[n];
      // the people's names the re-read record carries (person-names.ts), after the fields as on a read
      for (const n of e.fieldOrder) if (holdsUserId(e.fields[n]) && r[personNameKey(n)] !== undefined) out[personNameKey(n)] = r[personNameKey(n)];
      return out;
    });
    if (outcome?.file) return { records, file: await outcome.file() };
    return { records };
  }
}
