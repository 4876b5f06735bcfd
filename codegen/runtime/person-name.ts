/**
 * A field that holds a user ID (`"holds": "userId"`, metadata/schema/entity.schema.json) is sent
 * with the person's name beside it under `<field>__name`: the ID stays the field's value (what is
 * stored, filtered on and sent back), the name is what screens and exports show. Server and admin
 * both name the key through this module, so the convention is declared once.
 */
import type { CompiledEntity, CompiledField } from './model.ts';

const SUFFIX = '__name';

export const personNameKey = (field: string): string => `${field}${SUFFIX}`;

export const holdsUserId = (f: CompiledField | undefined): boolean => f?.holds === 'userId';

/** The field whose person's name `key` carries, when `key` is such a name key of `e`; else undefined. */
export function personNameField(e: CompiledEntity, key: string): string | undefined {
  if (!key.endsWith(SUFFIX)) return undefined;
  const field = key.slice(0, -SUFFIX.length);
  return Object.hasOwn(e.fields, field) && holdsUserId(e.fields[field]) ? field : undefined;
}

/** What a screen shows for `field` of `record`: the person's name when the server sent one, else the value. */
export const shownValue = (f: CompiledField | undefined, record: Record<string, unknown>, field: string): unknown =>
  holdsUserId(f) ? (record[personNameKey(field)] ?? record[field]) : record[field];
