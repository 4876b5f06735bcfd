/**
 * The generic engine: list, get, create, update, delete and actions for every entity, driven by
 * the compiled metadata. Each write is one transaction that also writes its audit rows; the caller's
 * permission and row scope are applied to every statement. No entity is named in this file.
 */
import type { CompiledAction, CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { SchemaValidator, type FieldErrors } from '../../codegen/runtime/validation.ts';
import { sqlite as d } from '../../codegen/runtime/dialect.ts';
import type { DB } from '../db/open.ts';
import type { Statement } from 'better-sqlite3';
import type { Principal } from './principal.ts';
import { AppError, conflict, forbidden, notFound, validationFailed, badRequest, unauthorized } from './errors.ts';
import { assertWarehouseAllows, operationGrant, grantOf, scopeOf, toStored, type SqlPart } from './access.ts';
import { COUNT_LOOKAHEAD, parseListQuery } from './query.ts';
import { fieldOf, selectList, toRecord } from './records.ts';
import type { ActionContext, ActionOutcome, CollectionContext, FileResult, HandlerServices, UploadedFile } from './handler-types.ts';

type Rec = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyHandler = (ctx: any) => unknown;
export type HandlerTable = Record<string, AnyHandler>;

const SYSTEM_WRITABLE_IGNORED = new Set(['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy']);
const AUDIT_ENTITY = 'auditEntry';

/**
 * `total` is exact unless `totalIsLowerBound`: then there are more than `total` rows (the count
 * stopped COUNT_LOOKAHEAD rows past the start of the page; Content-Range says `.../10000+`).
 */
export interface ListResult { records: Rec[]; total: number; start: number; end: number; totalIsLowerBound: boolean }
/** The statements list() runs for a query: the page, and the bounded count (its last parameter is the cap). */
export interface ListStatements { page: SqlPart; count: SqlPart; start: number; end: number }
export interface ActionResult { records: Rec[]; file?: FileResult; result?: unknown }

/**
 * The rows of a list page as records. better-sqlite3 builds a row object in C++ one property at a
 * time, which for a 500-row page of 30 columns costs as much as running the query; rows fetched as
 * arrays and copied into objects by a plain loop (one property order, so one hidden class) take
 * about half the time in all (README.md, "Performance"). Raw mode sticks to a statement, so these
 * statements are cached apart from Engine.prepare's.
 */
const pageStatements = new WeakMap<DB, Map<string, { stmt: Statement<unknown[], unknown[]>; columns: string[] }>>();
function pageRows(db: DB, sql: string, params: unknown[]): Rec[] {
  let cache = pageStatements.get(db);
  if (!cache) pageStatements.set(db, (cache = new Map()));
  let hit = cache.get(sql);
  if (!hit) {
    const stmt = db.prepare<unknown[], unknown[]>(sql).raw(true);
    hit = { stmt, columns: stmt.columns().map((c) => c.name) };
    if (cache.size > 2000) cache.clear();
    cache.set(sql, hit);
  }
  const columns = hit.columns;
  const n = columns.length;
  return hit.stmt.all(...params).map((a) => {
    const r: Rec = {};
    for (let i = 0; i < n; i++) r[columns[i]] = a[i];
    return r;
  });
}

export class Engine {
  readonly validator: SchemaValidator;
  private readonly stmtCache = new Map<string, Statement<unknown[], unknown>>();

  constructor(
    readonly db: DB,
    readonly meta: CompiledMetadata,
    readonly schemas: Record<string, EntitySchemas>,
    readonly handlers: HandlerTable,
  ) {
    this.validator = new SchemaValidator(meta);
    const missing = Object.values(meta.entities).flatMap((e) => Object.values(e.actions).filter((a) => a.handler && !handlers[`${e.name}.${a.name}`]).map((a) => `${e.name}.${a.name}`));
    if (missing.length) throw new Error(`action handlers missing: ${missing.join(', ')}`);
  }

  /** Prepared statements are cached by their SQL text. */
  prepare(sql: string): Statement<unknown[], unknown> {
    let s = this.stmtCache.get(sql);
    if (!s) {
      s = this.db.prepare<unknown[], unknown>(sql);
      if (this.stmtCache.size > 2000) this.stmtCache.clear();
      this.stmtCache.set(sql, s);
    }
    return s;
  }

  /** Next value of a named number series; the series lives in the database (shared by all processes). */
  nextNumber(series: string): number {
    return (this.prepare(`INSERT INTO _number_series (name, next_value) VALUES (?, 2) ON CONFLICT (name) DO UPDATE SET next_value = next_value + 1 RETURNING next_value - 1 AS n`).get(series) as { n: number }).n;
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
    const scope = scopeOf(this.meta, e, p, operationGrant(e, op, p), 'a');
    if (!scope) throw forbidden();
    return scope;
  }

  private writeScope(e: CompiledEntity, p: Principal, op: 'create' | 'update' | 'delete'): SqlPart {
    assertWarehouseAllows(e, p);
    const scope = scopeOf(this.meta, e, p, operationGrant(e, op, p), 'a');
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
  list(p: Principal | null, e: CompiledEntity, query: Rec, op: 'read' | 'export' = 'read', fixed?: SqlPart): ListResult {
    const st = this.listStatements(p, e, query, op, fixed);
    const rows = pageRows(this.db, st.page.sql, st.page.params);
    for (const r of rows) toRecord(e, r);
    let total: number;
    let totalIsLowerBound = false;
    if (rows.length > 0 && rows.length < st.end - st.start + 1) total = st.start + rows.length;
    else if (rows.length === 0 && st.start === 0) total = 0;
    else {
      const n = (this.prepare(st.count.sql).get(...st.count.params) as { n: number }).n;
      const cap = st.start + COUNT_LOOKAHEAD;
      totalIsLowerBound = n > cap;
      total = totalIsLowerBound ? cap : n;
    }
    return { records: rows, total, start: st.start, end: rows.length ? st.start + rows.length - 1 : st.start, totalIsLowerBound };
  }

  /** The SQL list() runs (the index-coverage test explains these plans). */
  listStatements(p: Principal | null, e: CompiledEntity, query: Rec, op: 'read' | 'export' = 'read', fixed?: SqlPart): ListStatements {
    const scope = this.readScope(e, p, op);
    const q = parseListQuery(this.meta, e, query);
    const hideDeleted: SqlPart | null = e.softDelete && !q.includeDeleted ? { sql: `a.${d.quote(e.fields[e.softDelete].column)} = 0`, params: [] } : null;
    const where = this.and(scope, q.where, hideDeleted, fixed);
    const from = ` FROM ${d.quote(e.table)} a${this.whereClause(where)}`;
    return {
      page: { sql: `SELECT ${selectList(e)}${from} ORDER BY ${q.orderBy} ${d.limitOffset(q.end - q.start + 1, q.start)}`, params: where.params },
      // one more row than the cap tells "more than the cap" from "exactly the cap"
      count: { sql: `SELECT COUNT(*) AS n FROM (SELECT 1${from} LIMIT ?)`, params: [...where.params, q.start + COUNT_LOOKAHEAD + 1] },
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
  ): { sql: string; countSql: string; params: unknown[] } {
    const scope = this.readScope(e, p, 'export');
    const q = parseListQuery(this.meta, e, { filter: query.filter, sort: query.sort }, screenSort);
    const hideDeleted: SqlPart | null = e.softDelete && !q.includeDeleted ? { sql: `a.${d.quote(e.fields[e.softDelete].column)} = 0`, params: [] } : null;
    const fixedParts: SqlPart[] = Object.entries(fixed).map(([n, v]) => {
      const f = fieldOf(e, n);
      if (!f) throw new Error(`fixed filter on unknown field ${e.name}.${n}`);
      const values = Array.isArray(v) ? v : [v];
      if (!values.length) return { sql: '0 = 1', params: [] };
      return { sql: `a.${d.quote(f.column)} IN (${values.map(() => '?').join(', ')})`, params: values.map((x) => toStored(e, n, x)) };
    });
    const where = this.and(scope, q.where, hideDeleted, ...fixedParts);
    const from = ` FROM ${d.quote(e.table)} a${this.whereClause(where)}`;
    const cols = fields.map((n) => {
      const f = fieldOf(e, n);
      if (!f || f.private) throw new Error(`export of unknown or private field ${e.name}.${n}`);
      return `a.${d.quote(f.column)}`;
    });
    return { sql: `SELECT ${cols.join(', ') || '1'}${from} ORDER BY ${q.orderBy}`, countSql: `SELECT COUNT(*) AS n${from}`, params: where.params };
  }

  getOne(p: Principal | null, e: CompiledEntity, id: number): Rec {
    const scope = this.readScope(e, p);
    const row = this.selectById(e, id, scope);
    if (!row) throw notFound();
    return row;
  }

  private selectById(e: CompiledEntity, id: number, scope: SqlPart | null, includePrivate = false): Rec | undefined {
    const where = this.and({ sql: `a.${d.quote('id')} = ?`, params: [id] }, scope);
    const row = this.prepare(`SELECT ${selectList(e, 'a', includePrivate)} FROM ${d.quote(e.table)} a${this.whereClause(where)}`).get(...where.params) as Rec | undefined;
    return row ? toRecord(e, row) : undefined;
  }

  /* ------------------------------------------------------------------ writes: shared parts */

  /** Inserts a row without permission checks (engine and handlers use it); returns the record. */
  insertRow(e: CompiledEntity, valuesIn: Rec, p: Principal, now: string): Rec {
    const values = { ...valuesIn, ...this.generatedValues(e, p, now, valuesIn) };
    const row: Rec = {};
    for (const n of e.fieldOrder) {
      const f = e.fields[n];
      if (n === 'id') continue;
      if (values[n] !== undefined) row[n] = values[n];
      else if (f.default !== undefined) row[n] = f.default;
    }
    if (e.versioned) row.version = 1;
    if (e.audit) Object.assign(row, { createdAt: now, createdBy: p.userId, updatedAt: now, updatedBy: p.userId });
    const names = Object.keys(row);
    const sql = `INSERT INTO ${d.quote(e.table)} (${names.map((n) => d.quote(e.fields[n].column)).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    const info = this.prepare(sql).run(...names.map((n) => toStored(e, n, row[n])));
    const id = Number(info.lastInsertRowid);
    this.audit(p, e, id, 'create', Object.fromEntries(names.map((n) => [n, [null, row[n]]])), now);
    return this.selectById(e, id, null)!;
  }

  /** Updates a row by id without permission checks; bumps the version; checks it when given. */
  updateRow(e: CompiledEntity, id: number, patch: Rec, p: Principal, now: string, operation: string, expectVersion?: number): Rec {
    const before = this.selectById(e, id, null, true);
    if (!before) throw notFound();
    const changed = Object.keys(patch).filter((n) => fieldOf(e, n) && !SYSTEM_WRITABLE_IGNORED.has(n) && patch[n] !== before[n]);
    const sets = changed.map((n) => `${d.quote(e.fields[n].column)} = ?`);
    const params = changed.map((n) => toStored(e, n, patch[n]));
    if (e.versioned) sets.push(`${d.quote('version')} = ${d.quote('version')} + 1`);
    if (e.audit) {
      sets.push(`${d.quote('updated_at')} = ?`, `${d.quote('updated_by')} = ?`);
      params.push(now, p.userId);
    }
    if (!sets.length) return this.selectById(e, id, null)!;
    let where = `${d.quote('id')} = ?`;
    params.push(id);
    if (e.versioned && expectVersion !== undefined) {
      where += ` AND ${d.quote('version')} = ?`;
      params.push(expectVersion);
    }
    const info = this.prepare(`UPDATE ${d.quote(e.table)} SET ${sets.join(', ')} WHERE ${where}`).run(...params);
    if (info.changes === 0) throw conflict('error.staleVersion');
    this.audit(p, e, id, operation, Object.fromEntries(changed.map((n) => [n, [e.fields[n].private ? '***' : before[n], e.fields[n].private ? '***' : patch[n]]])), now);
    return this.selectById(e, id, null)!;
  }

  private audit(p: Principal, e: CompiledEntity, id: number, operation: string, changes: Rec, now: string): void {
    if (e.name === AUDIT_ENTITY) return;
    const a = this.meta.entities[AUDIT_ENTITY];
    if (!a) return;
    const masked = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, fieldOf(e, k)?.private ? ['***', '***'] : v]));
    const cols = ['at', 'userId', 'warehouseCode', 'resource', 'recordId', 'operation', 'changes'];
    this.prepare(`INSERT INTO ${d.quote(a.table)} (${cols.map((c) => d.quote(a.fields[c].column)).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
      now, p.userId, p.warehouse, e.resource, id, operation, JSON.stringify(masked),
    );
  }

  /** Field errors for refs that point to rows the caller cannot see, and for taken unique values. */
  private checkRefsAndUniques(p: Principal, e: CompiledEntity, values: Rec, selfId: number | null): void {
    const errors: FieldErrors = {};
    for (const [n, v] of Object.entries(values)) {
      const f = fieldOf(e, n);
      if (f?.type === 'ref' && v !== null && v !== undefined) {
        const target = this.meta.entities[f.ref!];
        let ok = false;
        try {
          ok = !!this.selectById(target, Number(v), this.readScope(target, p));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
        }
        if (!ok) errors[n] = { key: 'validation.ref' };
      }
    }
    for (const ix of e.indexes.filter((i) => i.unique)) {
      if (!ix.fields.some((n) => n in values)) continue;
      const current = selfId !== null ? this.selectById(e, selfId, null) : undefined;
      const vals = ix.fields.map((n) => (n in values ? values[n] : current?.[n]));
      if (vals.some((v) => v === null || v === undefined)) continue;
      const where = ix.fields.map((n) => `${d.quote(e.fields[n].column)} = ?`).join(' AND ') + (selfId !== null ? ` AND ${d.quote('id')} <> ?` : '');
      const hit = this.prepare(`SELECT 1 FROM ${d.quote(e.table)} WHERE ${where}`).get(...ix.fields.map((n, i) => toStored(e, n, vals[i])), ...(selfId !== null ? [selfId] : []));
      if (hit) for (const n of ix.fields) if (n in values) errors[n] = { key: 'validation.unique' };
    }
    if (Object.keys(errors).length) {
      const onlyUnique = Object.values(errors).every((x) => x.key === 'validation.unique');
      throw onlyUnique ? conflict('error.duplicate', {}, errors) : validationFailed(errors);
    }
  }

  /** Runs fn in one IMMEDIATE transaction; a UNIQUE violation that slipped past the checks is a 409. */
  tx<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw conflict('error.duplicate');
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
  private generatedValues(e: CompiledEntity, p: Principal, now: string, given: Rec): Rec {
    const out: Rec = {};
    const session: Record<string, unknown> = { userId: p.userId, userName: p.name, supplierCode: p.supplierCode ?? p.departmentId, supplierName: p.departmentName, warehouseCode: p.warehouse, now };
    for (const n of e.fieldOrder) {
      const f = e.fields[n];
      if (given[n] !== undefined && given[n] !== null) continue;
      if (f.sessionDefault) out[n] = session[f.sessionDefault] ?? null;
      if (f.autoNumber) {
        const day = now.slice(0, 10).replace(/-/g, '');
        const series = `${e.name}.${n}.${day}`;
        const next = this.nextNumber(series);
        out[n] = `${f.autoNumber.prefix}${day}${String(next).padStart(f.autoNumber.digits, '0')}`;
      }
    }
    return out;
  }

  /* ------------------------------------------------------------------ create / update / delete */

  create(p: Principal, e: CompiledEntity, bodyIn: unknown): Rec {
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
    return this.tx(() => {
      const values = { ...data, ...forced };
      this.checkRefsAndUniques(p, e, values, null);
      return this.insertRow(e, values, p, now);
    });
  }

  /** Loads a row the caller may write, or 404 (existence is not revealed). */
  private loadForWrite(p: Principal, e: CompiledEntity, id: number, op: 'update' | 'delete'): Rec {
    const scope = this.writeScope(e, p, op);
    const row = this.selectById(e, id, scope, true);
    if (!row) throw notFound();
    return row;
  }

  private assertState(e: CompiledEntity, row: Rec, when: Record<string, string[]>, code: string): void {
    for (const [f, codes] of Object.entries(when)) if (!codes.includes(String(row[f]))) throw conflict(code, { status: String(row[f]) });
  }

  update(p: Principal, e: CompiledEntity, id: number, bodyIn: unknown): Rec {
    const body = this.assertObject(bodyIn);
    const now = new Date().toISOString();
    return this.tx(() => {
      const row = this.loadForWrite(p, e, id, 'update');
      const forced = this.forcedValues(e, p);
      const errors: FieldErrors = {};
      const data: Rec = {};
      for (const [k, v] of Object.entries(body)) {
        const f = fieldOf(e, k);
        if (!f || f.private) {
          errors[k] = { key: 'validation.unknownField' };
          continue;
        }
        if (k === 'version') {
          data.version = v;
          continue;
        }
        if (SYSTEM_WRITABLE_IGNORED.has(k)) continue;
        // a client sends the whole record back: unchanged read-only values are fine, changes are not
        if (f.readOnly || f.createOnly || k in forced) {
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
      this.checkRefsAndUniques(p, e, patch, id);
      return this.updateRow(e, id, patch, p, now, 'update', e.versioned ? Number(version) : undefined);
    });
  }

  /** Deletes (or soft-deletes) a row; hard deletes take the child rows that inherit its scope along. Returns the record and the storage names of removed files. */
  remove(p: Principal, e: CompiledEntity, id: number): { record: Rec; removedFiles: string[] } {
    const now = new Date().toISOString();
    return this.tx(() => {
      const row = this.loadForWrite(p, e, id, 'delete');
      this.assertState(e, row, e.deletableWhen, 'error.deleteNotAllowed');
      const visible = this.selectById(e, id, null)!;
      if (e.softDelete) {
        this.updateRow(e, id, { [e.softDelete]: true }, p, now, 'delete');
        return { record: visible, removedFiles: [] };
      }
      const removedFiles = this.deleteCascade(p, e, id, now);
      return { record: visible, removedFiles };
    });
  }

  private deleteCascade(p: Principal, e: CompiledEntity, id: number, now: string): string[] {
    const files: string[] = [];
    for (const child of Object.values(this.meta.entities)) {
      if (!child.scope.parent || child.fields[child.scope.parent].ref !== e.name) continue;
      const ids = (this.prepare(`SELECT ${d.quote('id')} AS id FROM ${d.quote(child.table)} WHERE ${d.quote(child.fields[child.scope.parent].column)} = ?`).all(id) as { id: number }[]).map((r) => r.id);
      for (const cid of ids) files.push(...this.deleteCascade(p, child, cid, now));
    }
    const full = this.selectById(e, id, null, true)!;
    if (e.file && typeof full.storageName === 'string') files.push(full.storageName);
    this.prepare(`DELETE FROM ${d.quote(e.table)} WHERE ${d.quote('id')} = ?`).run(id);
    this.audit(p, e, id, 'delete', Object.fromEntries(e.fieldOrder.filter((n) => !e.fields[n].system).map((n) => [n, [full[n], null]])), now);
    return files;
  }

  /* ------------------------------------------------------------------ files */

  /**
   * Records an uploaded file (already checked and stored under `storageName`). A file of the same
   * name under the same owner (the entity's overwriteKey) is refused with error.fileExists unless
   * `overwrite`, in which case the row is replaced. Returns the record and the storage name the
   * row no longer uses (to remove after commit).
   */
  recordFile(p: Principal, e: CompiledEntity, bodyIn: unknown, file: { fileName: string; fileSize: number; mimeType: string }, storageName: string, overwrite: boolean): { record: Rec; replaced: string | null } {
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
    return this.tx(() => {
      this.checkRefsAndUniques(p, e, Object.fromEntries(Object.entries(data).filter(([k]) => fieldOf(e, k)?.type === 'ref')), null);
      const keys = [...e.file!.overwriteKey, 'fileName'];
      const where = keys.map((k) => `${d.quote(e.fields[k].column)} = ?`).join(' AND ');
      const existing = this.prepare(`SELECT ${d.quote('id')} AS id, ${d.quote(e.fields.storageName.column)} AS storageName FROM ${d.quote(e.table)} WHERE ${where}`).get(...keys.map((k) => toStored(e, k, values[k]))) as { id: number; storageName: string } | undefined;
      if (existing && !overwrite) throw conflict('error.fileExists', { fileName: file.fileName });
      const result = existing
        ? { record: this.updateRow(e, existing.id, values, p, now, 'overwrite'), replaced: existing.storageName }
        : { record: this.insertRow(e, values, p, now), replaced: null };
      this.applyUploadAction(p, e, values, file.fileName, now);
      return result;
    });
  }

  /**
   * metadata file.onUpload: the parent's declared action follows an upload in the same
   * transaction (e.g. a hazardous-chemicals receipt becomes "uploaded"), when the caller may run
   * it and the parent's state allows it; otherwise only the listed parent fields are refreshed.
   */
  private applyUploadAction(p: Principal, e: CompiledEntity, values: Rec, fileName: string, now: string): void {
    const ou = e.file?.onUpload;
    if (!ou || !e.scope.parent) return;
    const parent = this.meta.entities[e.fields[e.scope.parent].ref!];
    const a = parent.actions[ou.action];
    const row = this.selectById(parent, Number(values[e.scope.parent]), null, true);
    if (!row) throw notFound();
    const extra = Object.fromEntries(Object.entries(ou.setParent).map(([k, v]) => [k, v === '$fileName' ? fileName : v]));
    const allowed = !!grantOf(a.allow, p) && (!a.from || !a.statusField || a.from.includes(String(row[a.statusField])));
    if (allowed) this.transition(parent, a, p, now, {}, row, extra);
    else if (Object.keys(extra).length) this.updateRow(parent, Number(row.id), extra, p, now, 'upload');
  }

  /** The stored file behind a visible record of a file entity. */
  fileOf(p: Principal, e: CompiledEntity, id: number): { fileName: string; mimeType: string; storageName: string } {
    const scope = this.readScope(e, p);
    const row = this.selectById(e, id, scope, true);
    if (!row || !e.file) throw notFound();
    return { fileName: String(row.fileName), mimeType: String(row.mimeType ?? 'application/octet-stream'), storageName: String(row.storageName) };
  }

  /* ------------------------------------------------------------------ actions */

  private services(p: Principal, now: string): HandlerServices {
    const entity = (name: string) => {
      const e = this.meta.entities[name];
      if (!e) throw new Error(`unknown entity ${name}`);
      return e;
    };
    return {
      db: this.db,
      meta: this.meta,
      principal: p,
      now,
      fail: (status, code, args) => {
        throw new AppError(status, code, args ?? {});
      },
      insert: (name, values) => this.insertRow(entity(name), values, p, now),
      update: (name, id, patch) => this.updateRow(entity(name), id, patch, p, now, 'update'),
      nextNumber: (series) => this.nextNumber(series),
    };
  }

  /** The generic transition of one record. */
  private transition(e: CompiledEntity, a: CompiledAction, p: Principal, now: string, input: Rec, row: Rec, extra: Rec = {}, expectVersion?: number): Rec {
    const patch: Rec = {};
    if (a.statusField && a.to) patch[a.statusField] = a.to.length > 1 ? input.target : a.to[0];
    for (const n of a.inputOrder) if (n !== 'target' && fieldOf(e, n) && !e.fields[n].system && input[n] !== undefined) patch[n] = input[n];
    // $user is the user ID (who did it, as in the audit trail); $userName the person's name (shown on documents)
    for (const [k, v] of Object.entries(a.set)) patch[k] = v === '$now' ? now : v === '$user' ? p.userId : v === '$userName' ? p.name : v;
    Object.assign(patch, extra);
    return this.updateRow(e, Number(row.id), patch, p, now, `action:${a.name}`, expectVersion);
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
    const targetIds: number[] = a.collection ? ((input.ids as number[] | undefined) ?? []) : ids ?? ((input.ids as number[] | undefined) ?? []);
    if (!a.collection && !single && !a.bulk) throw badRequest('error.onlyOneRecord');
    if (!a.collection && targetIds.length === 0) throw badRequest('error.noRecordSelected');
    const now = new Date().toISOString();
    const svc = this.services(p, now);
    let outcome: ActionOutcome<Rec> | undefined;
    let result: unknown;
    this.tx(() => {
      if (a.collection) {
        const ctx: CollectionContext<Rec> = { ...svc, entity: e, action: a, input, ...(file ? { file } : {}) };
        result = this.handlers[`${e.name}.${a.name}`](ctx);
        return;
      }
      const readScope = this.readScope(e, p);
      const actionScope = scopeOf(this.meta, e, p, grant, 'a');
      if (!actionScope) throw forbidden();
      const rows: Rec[] = [];
      for (const id of [...new Set(targetIds)]) {
        const row = this.selectById(e, id, this.and(readScope, actionScope), true);
        if (!row) throw notFound();
        if (a.from && a.statusField && !a.from.includes(String(row[a.statusField]))) throw conflict(a.illegalTransitionKey, { action: name, status: String(row[a.statusField]), id });
        rows.push(row);
      }
      const expectVersion = single && e.versioned && typeof input.version === 'number' ? input.version : undefined;
      if (expectVersion !== undefined && rows[0].version !== expectVersion) throw conflict('error.staleVersion');
      if (a.handler) {
        const ctx: ActionContext<Rec, Rec> = {
          ...svc, entity: e, action: a, records: rows, input, ...(file ? { file } : {}),
          transition: (record, patch) => this.transition(e, a, p, now, input, record, patch),
        };
        const out = this.handlers[`${e.name}.${a.name}`](ctx) as Rec[] | ActionOutcome<Rec>;
        outcome = Array.isArray(out) ? { records: out } : out;
      } else {
        outcome = { records: rows.map((r) => this.transition(e, a, p, now, input, r, {}, expectVersion)) };
      }
    });
    if (a.collection) return { records: [], result };
    const records = (outcome?.records ?? []).map((r) => {
      const out: Rec = {};
      for (const n of e.fieldOrder) if (!e.fields[n].private) out[n] = r[n];
      return out;
    });
    if (outcome?.file) return { records, file: await outcome.file() };
    return { records };
  }
}
