/**
 * A record as the API sends it: its keys in order and the JSON type of each field type. The
 * response schemas (routes/resources.ts), the pages SQLite writes (engine/list-json.ts) and the
 * pages written from PostgreSQL's row arrays (engine/rows-json.ts) all read them, so the three
 * send the same keys in the same order and print a value the same way.
 */
import type { CompiledEntity, CompiledField, FieldType } from '../../codegen/runtime/model.ts';
import { holdsUserId, personNameKey } from '../../codegen/runtime/person-name.ts';

export const JSON_TYPE: Record<FieldType, 'string' | 'integer' | 'number' | 'boolean'> = {
  string: 'string',
  text: 'string',
  code: 'string',
  date: 'string',
  datetime: 'string',
  integer: 'integer',
  ref: 'integer',
  decimal: 'number',
  boolean: 'boolean',
};

/** One key of a record: a visible field, or the name of the person whose user ID field `nameOf` holds. */
export type RecordKey = { key: string; field: CompiledField; nameOf?: undefined } | { key: string; field?: undefined; nameOf: string };

/**
 * The keys of the entity's records, in the order they are sent: the visible fields in field order,
 * then the people's names (engine/person-names.ts; the page statement appends them last).
 */
export function recordKeys(e: CompiledEntity): RecordKey[] {
  const visible = e.fieldOrder.filter((n) => !e.fields[n].private);
  return [
    ...visible.map((n) => ({ key: n, field: e.fields[n] })),
    ...visible.filter((n) => holdsUserId(e.fields[n])).map((n) => ({ key: personNameKey(n), nameOf: n })),
  ];
}
