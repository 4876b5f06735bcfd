/**
 * Cross-field rules (metadata entity "compare", compiled by codegen/compile/compare-rules.ts):
 * `validTo >= validFrom`, `validFrom >= $today` on create. One judge for both sides: the server
 * runs it on the record as it will be after a write (server/engine/hooks.ts), the admin's forms
 * on the values being edited (admin/src/screens/formBody.ts), so both refuse the same values with
 * the same message key.
 */
import { TODAY, type CompareOp, type CompiledCompare, type CompiledEntity } from './model.ts';
import type { FieldErrors } from './error-keys.ts';

const HOLDS: Record<CompareOp, (c: number) => boolean> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
  '=': (c) => c === 0,
  '!=': (c) => c !== 0,
};

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '';

/**
 * A value as something ordered: numbers as numbers, dates as "YYYY-MM-DD", datetimes as epoch
 * milliseconds (ISO texts with different offsets do not sort as text). Null when the value is not
 * of its kind: the field's own schema reports that, a comparison would only add noise.
 */
function ordinal(type: string, v: unknown, asDay: boolean): number | string | null {
  if (isEmpty(v)) return null;
  if (type === 'integer' || type === 'decimal') return typeof v === 'number' && Number.isFinite(v) ? v : null;
  const text = v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : null;
  if (text === null) return null;
  if (type === 'date' || asDay) return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

const order = (a: number | string, b: number | string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The field errors of the entity's compare rules for `record` (the values after the write) on
 * `operation`; `today` is "YYYY-MM-DD" (UTC). Null when every rule holds or has an empty side.
 * The first failing rule of a field wins, as with the schema's own errors.
 */
export function compareErrors(
  entity: Pick<CompiledEntity, 'fields' | 'compare'>,
  record: Record<string, unknown>,
  operation: 'create' | 'update',
  today: string,
): FieldErrors | null {
  const out: FieldErrors = {};
  for (const rule of entity.compare ?? []) {
    if (!rule.on.includes(operation) || rule.field in out) continue;
    if (!holds(entity, rule, record, today)) out[rule.field] = { key: rule.messageKey };
  }
  return Object.keys(out).length ? out : null;
}

function holds(entity: Pick<CompiledEntity, 'fields'>, rule: CompiledCompare, record: Record<string, unknown>, today: string): boolean {
  const type = entity.fields[rule.field]?.type;
  if (!type) return true;
  const vsToday = rule.other === TODAY;
  const a = ordinal(type, record[rule.field], vsToday);
  const b = vsToday ? today : ordinal(entity.fields[rule.other]?.type ?? type, record[rule.other], false);
  if (a === null || b === null || typeof a !== typeof b) return true;
  return HOLDS[rule.op](order(a, b));
}
