/**
 * Metadata `lookup`s (references by value, issue 9 point 13 and issue 20 point 3): a value written
 * to a lookup field, or given to a lookup input of an action, must name a record of the target
 * entity that the caller can read (its read scope) and whose scopedBy fields equal this record's;
 * otherwise a field error with the lookup's message (e.g. "no supplier with code S999"). A lookup
 * with `when` applies only while the record's (the input's) code fields hold one of its codes: an
 * account's departmentId names a supplier only for a supplier account.
 *
 * A found lookup with `fills` also gives the target's values of those fields (a part's description):
 * the generic create and update write them, so the description is the stock's whatever the form or
 * an API caller sent.
 *
 * One check for every way in: the generic create and update, the action inputs (account
 * registration), and the handlers' validateRecord (the fee import), so the supplier master is
 * asked the same question whichever route writes the value.
 */
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Queryable } from '../db/types.ts';
import type { CompiledEntity, CompiledField, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { lookupApplies } from '../../codegen/runtime/lookup-rules.ts';
import { AppError } from './errors.ts';
import type { SqlPart } from './access.ts';

type Rec = Record<string, unknown>;

export interface LookupScope {
  meta: CompiledMetadata;
  /** the caller's read scope of the target (throws when the caller may not read it at all) */
  readScope: (target: CompiledEntity) => SqlPart;
  and: (...parts: SqlPart[]) => SqlPart;
}

/**
 * Field errors of the lookup fields among `values` (fields: the entity's fields or an action's
 * inputs). A field the values leave out is not checked; `current` gives the stored record for
 * the scopedBy and when fields an update leaves out.
 */
export async function lookupErrors(
  q: Queryable,
  s: LookupScope,
  fields: Record<string, CompiledField>,
  values: Rec,
  current: () => Promise<Rec | undefined>,
  /** receives the fields a found lookup fills (`fills`): the target's values, whatever the caller sent */
  filled?: Rec,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  let stored: Rec | undefined;
  let loaded = false;
  const valueOf = async (f: string): Promise<unknown> => {
    if (f in values) return values[f];
    if (!loaded) {
      stored = await current();
      loaded = true;
    }
    return stored?.[f];
  };
  for (const [n, v] of Object.entries(values)) {
    const lookup = fields[n]?.lookup;
    if (!lookup || v === null || v === undefined || v === '') continue;
    const whenValues = new Map<string, unknown>();
    for (const f of Object.keys(lookup.when ?? {})) whenValues.set(f, await valueOf(f));
    if (!lookupApplies(lookup, (f) => whenValues.get(f))) continue;
    const target = s.meta.entities[lookup.entity];
    let scope: SqlPart;
    try {
      scope = s.readScope(target);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      errors[n] = { key: lookup.messageKey, args: { value: String(v) } };
      continue;
    }
    const conds: SqlPart[] = [{ sql: `a.${quote(target.fields[lookup.field].column)} = ?`, params: [v] }];
    for (const [mine, theirs] of Object.entries(lookup.scopedBy)) {
      const mv = await valueOf(mine);
      const column = `a.${quote(target.fields[theirs].column)}`;
      conds.push(mv === null || mv === undefined ? { sql: `${column} IS NULL`, params: [] } : { sql: `${column} = ?`, params: [mv] });
    }
    const where = s.and(...conds, scope);
    const fills = Object.entries(lookup.fills ?? {});
    const columns = ['1 AS x', ...fills.map(([, theirs], i) => `a.${quote(target.fields[theirs].column)} AS f${i}`)].join(', ');
    const found = await q.get<Rec>(`SELECT ${columns} FROM ${quote(target.table)} a WHERE ${where.sql}`, where.params);
    if (!found) errors[n] = { key: lookup.messageKey, args: { value: String(v) } };
    else if (filled) fills.forEach(([mine], i) => (filled[mine] = found[`f${i}`] ?? null));
  }
  return errors;
}
