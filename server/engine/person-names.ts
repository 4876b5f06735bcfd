/**
 * The person's name beside a field that holds a user ID (codegen/runtime/person-name.ts): one
 * correlated sub-select per such field in the same statement as the rows (no query per row), on
 * the accounts table's unique user_id index. A user ID no account has any more shows as itself.
 *
 * The accounts table is the one sign-in reads (server/plugins/auth.ts). The sub-select ignores the
 * accounts' own read scope on purpose: a caller learns the name of the person on a record it may
 * already read, and nothing else (no filter or sort runs on the name).
 */
import type { CompiledEntity } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import { holdsUserId, personNameKey } from '../../codegen/runtime/person-name.ts';
import type { Queryable } from '../db/types.ts';

const ACCOUNTS = { table: 'account', userId: 'user_id', name: 'name' } as const;

/** The name of the person whose user ID `idSql` is, falling back to the ID itself. */
export const personNameSql = (idSql: string): string =>
  `COALESCE((SELECT pn.${quote(ACCOUNTS.name)} FROM ${quote(ACCOUNTS.table)} pn WHERE pn.${quote(ACCOUNTS.userId)} = ${idSql}), ${idSql})`;

const allCache = new WeakMap<CompiledEntity, string>();
const projectedCache = new WeakMap<readonly string[], string>();

const columnsOf = (e: CompiledEntity, fields: readonly string[]): string =>
  fields
    .filter((n) => Object.hasOwn(e.fields, n) && !e.fields[n].private && holdsUserId(e.fields[n]))
    .map((n) => `, ${personNameSql(`a.${quote(e.fields[n].column)}`)} AS ${quote(personNameKey(n))}`)
    .join('');

/**
 * `, COALESCE(...) AS "auditor__name", ...` for the user-ID fields among `fields` (a lean page's
 * projection; every visible field when absent), in the entity's field order (list-json.ts follows it), of the row aliased `a`, to append to a select
 * list; '' when there are none.
 */
export function personNameColumns(e: CompiledEntity, fields?: readonly string[]): string {
  if (!fields) {
    let sql = allCache.get(e);
    if (sql === undefined) allCache.set(e, (sql = columnsOf(e, e.fieldOrder)));
    return sql;
  }
  let sql = projectedCache.get(fields);
  if (sql === undefined)
    projectedCache.set(
      fields,
      (sql = columnsOf(
        e,
        e.fieldOrder.filter((n) => fields.includes(n)),
      )),
    );
  return sql;
}

/**
 * The names of the people whose user IDs are given (nulls and repeats skipped), in one query:
 * for lists built in code rather than SQL (a record's history). An ID without an account has no
 * entry; the caller shows the ID.
 */
export async function personNames(q: Queryable, userIds: Iterable<unknown>): Promise<Map<string, string>> {
  const ids = [...new Set([...userIds].filter((v): v is string => typeof v === 'string' && v !== ''))];
  if (!ids.length) return new Map();
  const rows = await q.all<{ userId: string; name: string }>(
    `SELECT ${quote(ACCOUNTS.userId)} AS "userId", ${quote(ACCOUNTS.name)} AS "name" FROM ${quote(ACCOUNTS.table)} WHERE ${quote(ACCOUNTS.userId)} IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  return new Map(rows.map((r) => [r.userId, r.name]));
}
