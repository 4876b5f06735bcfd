/**
 * When a field's metadata `lookup` applies, shared by the server's check (server/engine/lookups.ts)
 * and the admin's form (an autocomplete while it applies, plain text otherwise): a lookup with
 * `when` applies only while the record's code fields hold one of its stored codes.
 */
import type { CompiledField } from './model.ts';

export function lookupApplies(lookup: NonNullable<CompiledField['lookup']>, valueOf: (field: string) => unknown): boolean {
  return Object.entries(lookup.when ?? {}).every(([f, codes]) => codes.includes(String(valueOf(f) ?? '')));
}
