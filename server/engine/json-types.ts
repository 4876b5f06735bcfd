/**
 * The JSON type each field type goes out as: the response schemas (routes/resources.ts) and the
 * list pages written from row arrays (engine/rows-json.ts) both read it, so the two print a value
 * the same way.
 */
import type { FieldType } from '../../codegen/runtime/model.ts';

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
