/**
 * Form values -> request body, and the browser-side validation of that body with the very schema
 * the server checks (codegen/runtime/validate-lite.ts, eval-free for the CSP). Errors come back in
 * react-admin's shape `{ field: { message: key, args } }`; react-admin translates them in place.
 */
import type { CompiledEntity, CompiledField } from '../../../codegen/runtime/model.ts';
import { compareErrors } from '../../../codegen/runtime/compare-rules.ts';
import type { JsonSchema } from '../../../codegen/runtime/field-schema.ts';
import { liteToday, validateLite } from '../../../codegen/runtime/validate-lite.ts';
import { metadata } from './meta.ts';

export type FormMode = 'create' | 'update' | 'action';
export type RaFormErrors = Record<string, { message: string; args: Record<string, unknown> }>;

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '';

/** A typed number stays a number; what the user typed but is not a number stays text so the schema says "must be a number". */
function coerce(f: CompiledField, v: unknown): unknown {
  if ((f.type === 'integer' || f.type === 'decimal' || f.type === 'ref') && typeof v === 'string') {
    const t = v.trim();
    return t !== '' && !Number.isNaN(Number(t)) ? Number(t) : v;
  }
  if (f.type === 'datetime' && (v instanceof Date || (typeof v === 'string' && !/[zZ]|[+-]\d\d:?\d\d$/.test(v)))) {
    const d = v instanceof Date ? v : new Date(v);
    return Number.isNaN(d.getTime()) ? v : d.toISOString();
  }
  if (f.type === 'date' && v instanceof Date) {
    return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  }
  return v;
}

/**
 * The body to send: only the given fields. Empty inputs are left out (create, action: the server's
 * "required" answers), except on update where an emptied optional field is sent as null to clear it.
 */
export function toBody(values: Record<string, unknown>, fields: readonly CompiledField[], mode: FormMode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (isEmpty(v)) {
      if (mode === 'update' && !f.required) body[f.name] = null;
      continue;
    }
    body[f.name] = coerce(f, v);
  }
  return body;
}

/**
 * Validates a body with the generated schema, then (record forms) the entity's cross-field rules
 * (metadata "compare") on the record as it would be saved; only errors of fields shown in the form
 * are returned.
 */
export function validateBody(
  schema: JsonSchema,
  body: Record<string, unknown>,
  fields: readonly CompiledField[],
  mode: FormMode,
  values: Record<string, unknown>,
  entity?: Pick<CompiledEntity, 'fields' | 'compare'>,
): RaFormErrors {
  const out: RaFormErrors = {};
  const shown = new Set(fields.map((f) => f.name));
  const errs = validateLite(schema, body, metadata.rules) ?? {};
  for (const [field, e] of Object.entries(errs)) {
    if (shown.has(field)) out[field] = { message: e.key, args: e.args ?? {} };
  }
  // an update may leave a field out (unchanged); emptying a required one is still "required"
  if (mode === 'update') {
    for (const f of fields) if (f.required && isEmpty(values[f.name]) && !out[f.name]) out[f.name] = { message: 'validation.required', args: {} };
  }
  if (entity?.compare && mode !== 'action') {
    const compared = compareErrors(entity, { ...values, ...body }, mode, liteToday()) ?? {};
    for (const [field, e] of Object.entries(compared)) if (shown.has(field) && !out[field]) out[field] = { message: e.key, args: {} };
  }
  return out;
}

/** react-admin `validate` for a form over `fields`, checked against `schema` with `extra` (version, ids) added, and `entity`'s compare rules. */
export function makeValidate(
  schema: JsonSchema,
  fields: readonly CompiledField[],
  mode: FormMode,
  extra: Record<string, unknown> = {},
  entity?: Pick<CompiledEntity, 'fields' | 'compare'>,
) {
  return (values: Record<string, unknown>): RaFormErrors => validateBody(schema, { ...extra, ...toBody(values, fields, mode) }, fields, mode, values, entity);
}
