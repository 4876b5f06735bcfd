/**
 * The one mapping from a failed schema keyword to a message key and its placeholder values, shared
 * by the server's ajv validator (validation.ts) and the browser's eval-free one (validate-lite.ts),
 * so a field error reads the same on both sides.
 */
import type { CompiledRule } from './model.ts';
import type { JsonSchema } from './field-schema.ts';

export interface FieldError {
  key: string;
  args?: Record<string, string | number>;
}
export type FieldErrors = Record<string, FieldError>;
export type RuleCatalogue = Record<string, Pick<CompiledRule, 'messageKey' | 'params'>>;

/** One failed keyword, as either validator reports it. */
export interface KeywordFailure {
  field: string;
  keyword: string;
  /** the allOf index when the error comes from inside a top-level property's allOf */
  ruleIndex?: number;
  limit?: number;
  schemaValue?: unknown;
  typeName?: string;
  missing?: string;
  additional?: string;
}

/** The field a failure concerns and its message (a named rule's own message when the failure is inside it). */
export function fieldErrorOf(e: KeywordFailure, schema: JsonSchema, rules: RuleCatalogue): [string, FieldError] {
  if (e.keyword === 'required') return [String(e.missing), { key: 'validation.required' }];
  if (e.keyword === 'additionalProperties') return [String(e.additional), { key: 'validation.unknownField' }];
  const field = e.field;
  if (e.ruleIndex !== undefined) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const fragment = (props[field]?.allOf as JsonSchema[] | undefined)?.[e.ruleIndex];
    const rule = rules[String(fragment?.$comment ?? '').replace(/^rule:/, '')];
    if (rule) return [field, { key: rule.messageKey, ...(Object.keys(rule.params).length ? { args: rule.params } : {}) }];
  }
  switch (e.keyword) {
    case 'notBlank':
      return [field, { key: 'validation.required' }];
    case 'maxLength':
      return [field, { key: 'validation.maxLength', args: { max: Number(e.limit) } }];
    case 'minLength':
      return [field, { key: 'validation.minLength', args: { min: Number(e.limit) } }];
    case 'maxBytes':
      return [field, { key: 'validation.maxBytes', args: { max: Number(e.schemaValue) } }];
    case 'minimum':
    case 'exclusiveMinimum':
      return [field, { key: 'validation.minimum', args: { min: Number(e.limit) } }];
    case 'maximum':
    case 'exclusiveMaximum':
      return [field, { key: 'validation.maximum', args: { max: Number(e.limit) } }];
    case 'maxDecimals':
      return [field, { key: 'validation.decimals', args: { digits: Number(e.schemaValue) } }];
    case 'enum':
      return [field, { key: 'validation.code' }];
    case 'format':
      return [field, { key: e.typeName === 'date' ? 'validation.date' : e.typeName === 'date-time' ? 'validation.datetime' : 'validation.invalid' }];
    case 'type': {
      const t = String(e.typeName).split(',')[0];
      return [
        field,
        { key: t === 'integer' ? 'validation.integer' : t === 'number' ? 'validation.number' : t === 'boolean' ? 'validation.boolean' : 'validation.string' },
      ];
    }
    default:
      return [field, { key: 'validation.invalid' }];
  }
}
