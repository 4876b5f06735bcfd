/**
 * The permission matrix and the row scope, both read from metadata. Every query the engine runs
 * for a caller goes through scopeOf(): lists, counts, gets, updates, deletes and actions alike,
 * so a supplier can never reach another supplier's row by any route.
 */
import type { CompiledEntity, CompiledMetadata, Where } from '../../codegen/runtime/model.ts';
import { quote, type Dialect } from '../../codegen/runtime/dialect.ts';
import type { Principal } from './principal.ts';
import { forbidden } from './errors.ts';

export interface SqlPart {
  sql: string;
  params: unknown[];
}

// the rules that need no database are shared with the admin and the browser suite
import { operationGrant } from '../../codegen/runtime/access-rules.ts';
export { grantOf, operationGrant, screenRefusal, type Caller } from '../../codegen/runtime/access-rules.ts';

/** A value as the database stores it (booleans are 0/1 in SQLite). */
export const toStored = (d: Dialect, e: CompiledEntity, field: string, v: unknown): unknown =>
  e.fields[field]?.type === 'boolean' && typeof v === 'boolean' ? d.bool(v) : v;

function whereSql(d: Dialect, e: CompiledEntity, where: Where, alias: string): SqlPart {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [field, values] of Object.entries(where)) {
    const col = `${alias}.${quote(e.fields[field].column)}`;
    parts.push(`${col} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values.map((v) => toStored(d, e, field, v)));
  }
  return { sql: parts.join(' AND '), params };
}

/** Refuses entities limited to claim warehouses when the caller's warehouse is not one. */
export function assertWarehouseAllows(e: CompiledEntity, p: Principal): void {
  if (e.claimWarehouseOnly && !p.isClaimWarehouse) throw forbidden('error.notClaimWarehouse');
}

/**
 * The SQL condition limiting `alias` to the rows the caller may touch under `grant` (an operation's
 * or an action's grant for the caller's profile), or null when there is no grant. The grant's own
 * `where` is part of it; `supplierFields` narrows the supplier scope (an action's acting supplier);
 * `depth` counts the parents followed for a child's scope.
 */
export function scopeOf(
  meta: CompiledMetadata,
  d: Dialect,
  e: CompiledEntity,
  p: Principal,
  grant: { where: Where | null } | undefined,
  alias: string,
  depth = 0,
  supplierFields: string[] = e.scope.supplierFields,
): SqlPart | null {
  if (!grant) return null;
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (x: SqlPart) => {
    if (x.sql) {
      parts.push(x.sql);
      params.push(...x.params);
    }
  };
  if (grant.where) add(whereSql(d, e, grant.where, alias));
  const prof = meta.access.profiles[p.profile];
  if (prof.supplierScoped && p.role !== 'admin' && supplierFields.length) {
    // a supplier account without a supplier code sees nothing (never a NUL byte: PostgreSQL refuses it in text)
    if (!p.supplierCode) add({ sql: '1 = 0', params: [] });
    else
      add({
        sql: `(${supplierFields.map((f) => `${alias}.${quote(e.fields[f].column)} = ?`).join(' OR ')})`,
        params: supplierFields.map(() => p.supplierCode),
      });
  }
  if (e.scope.warehouseField) add({ sql: `${alias}.${quote(e.fields[e.scope.warehouseField].column)} = ?`, params: [p.warehouse] });
  if (e.scope.parent) {
    const parentName = e.fields[e.scope.parent].ref!;
    const parent = meta.entities[parentName];
    const pa = `p${depth + 1}`;
    const inner = scopeOf(meta, d, parent, p, operationGrant(parent, 'read', p), pa, depth + 1);
    if (!inner) return null;
    add({
      sql: `EXISTS (SELECT 1 FROM ${quote(parent.table)} ${pa} WHERE ${pa}.${quote('id')} = ${alias}.${quote(e.fields[e.scope.parent].column)}${inner.sql ? ` AND ${inner.sql}` : ''}${parent.softDelete ? '' : ''})`,
      params: inner.params,
    });
  }
  return { sql: parts.join(' AND '), params };
}
