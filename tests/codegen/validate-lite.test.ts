/**
 * validate-lite (the browser's eval-free interpreter) must refuse exactly what the server's ajv
 * validator refuses, with the same message key per field. Property-based: for every generated
 * create, update and action schema, random bodies built from each field's own schema (values near
 * every limit, wrong types, junk keys) and plain random junk go through both validators.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import fc from 'fast-check';
import { SchemaValidator, setToday } from '../../codegen/runtime/validation.ts';
import { validateLite, setLiteToday } from '../../codegen/runtime/validate-lite.ts';
import type { JsonSchema } from '../../codegen/runtime/field-schema.ts';
// the same schemas the browser receives from GET /api/meta
import { metadata, schemas } from '../../server/generated/index.ts';

const TODAY = '2026-06-15';
const server = new SchemaValidator(metadata);

beforeAll(() => {
  setToday(() => TODAY);
  setLiteToday(() => TODAY);
});

/** every body schema the admin validates */
const bodySchemas: [string, JsonSchema][] = Object.entries(schemas)
  .filter(([name]) => name !== '$comment')
  .flatMap(([name, s]) => [
    [`${name}.create`, s.create] as [string, JsonSchema],
    [`${name}.update`, s.update] as [string, JsonSchema],
    ...Object.entries(s.actions).map(([a, sch]) => [`${name}.actions.${a}`, sch] as [string, JsonSchema]),
    ...Object.entries(s.recordInputs ?? {}).map(([a, sch]) => [`${name}.recordInputs.${a}`, sch] as [string, JsonSchema]),
  ]);

const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

const num = (s: JsonSchema, k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
/** the limits of a property schema and of the rules in its allOf */
function limits(s: JsonSchema): number[] {
  const all = [s, ...((s.allOf as JsonSchema[] | undefined) ?? [])];
  return all.flatMap((x) =>
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'maxLength', 'minLength', 'maxBytes']
      .map((k) => num(x, k))
      .filter((v): v is number => v !== undefined),
  );
}

const dateLike = fc.oneof(
  fc.constantFrom(TODAY, '2026-06-14', '2026-06-16', '2024-02-29', '2023-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '20260615', '2026-6-15', ''),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-06-15T10:00:00Z',
    '2026-06-15 10:00:00+08:00',
    '2026-06-15T10:00:00',
    '2026-06-15T24:00:00Z',
    '2026-06-15T23:59:60Z',
    '2026-06-15t10:00:00.5z',
  ),
);
const textLike = (s: JsonSchema) => {
  const lens = limits(s);
  const max = Math.max(0, ...lens) + 3;
  return fc.oneof(
    fc.string({ maxLength: Math.min(max, 60) }),
    fc.constantFrom(
      '',
      ' ',
      '  \t',
      'abc',
      'ABC123',
      '12345678901',
      '010-12345678',
      '0101-1234567',
      '123456',
      'a@b.cn',
      'bad@',
      'x@y',
      'Ab12345678',
      '中文字段',
      '😀😀',
    ),
    fc.integer({ min: 0, max: Math.min(max, 600) }).chain((n) => fc.constantFrom('x'.repeat(n), '中'.repeat(n), '😀'.repeat(n), `${' '.repeat(n)}`)),
    fc.stringMatching(/^[0-9]{1,12}$/),
    fc.stringMatching(/^[A-Za-z0-9]{0,22}$/),
    dateLike,
  );
};
const numberLike = (s: JsonSchema) => {
  const lims = limits(s);
  return fc.oneof(
    fc.constantFrom(
      0,
      -0,
      1,
      -1,
      0.5,
      1.005,
      0.1 + 0.2,
      2.5,
      1e21,
      1e-7,
      123.456,
      5000,
      5001,
      999999999999.99,
      1e12,
      ...lims.flatMap((l) => [l - 1, l - 0.01, l, l + 0.01, l + 1]),
    ),
    fc.integer({ min: -10, max: 10_000 }),
    fc.double({ min: -1e6, max: 1e13, noNaN: true }),
    fc.integer({ min: -100000, max: 100000 }).map((n) => n / 100),
    fc.integer({ min: -100000, max: 100000 }).map((n) => n / 10000),
  );
};

/** a value for one property, mostly of its own kind, sometimes anything */
function valueFor(s: JsonSchema): fc.Arbitrary<unknown> {
  const types = ([] as string[]).concat((s.type as string | string[] | undefined) ?? []);
  const own: fc.Arbitrary<unknown>[] = [];
  if (s.enum) own.push(fc.constantFrom(...(s.enum as unknown[])));
  if (types.includes('string')) own.push(textLike(s));
  if (types.includes('integer') || types.includes('number')) own.push(numberLike(s));
  if (types.includes('boolean')) own.push(fc.boolean());
  if (types.includes('array'))
    own.push(
      fc.array(fc.oneof(fc.integer({ min: -2, max: 1000 }), fc.double(), fc.string({ maxLength: 2 })), { maxLength: 6 }),
      fc.array(fc.nat(), { minLength: 499, maxLength: 502 }),
    );
  if (types.includes('null')) own.push(fc.constant(null));
  // perRecord: { "<id>": { <input>: value } } (its entries are checked against recordInputs)
  if (types.includes('object'))
    own.push(
      fc.dictionary(fc.oneof(fc.stringMatching(/^[1-9][0-9]{0,3}$/), fc.string({ maxLength: 3 })), fc.oneof(fc.object({ maxDepth: 1 }), junk), { maxKeys: 3 }),
    );
  return fc.oneof({ arbitrary: fc.oneof(...own), weight: 5 }, { arbitrary: junk, weight: 1 });
}

function bodyFor(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueFor(s)])), { requiredKeys: [] });
  const extra = fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('id', 'createdAt', 'status', 'constructor', 'toString')), junk, {
    maxKeys: 2,
  });
  return fc.tuple(record, fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: extra, weight: 1 })).map(([r, e]) => ({ ...e, ...r }));
}

function agree(schema: JsonSchema, body: unknown): void {
  const want = server.validate(schema, body);
  const got = validateLite(schema, body, metadata.rules);
  // the same fields, the same message keys and the same placeholder values
  expect(got).toEqual(want);
}

describe('validate-lite agrees with the server validator (ajv)', () => {
  it('covers a schema for every entity action', () => {
    expect(bodySchemas.length).toBeGreaterThan(40);
  });

  for (const [name, schema] of bodySchemas) {
    it(`${name}: field-aware random bodies`, () => {
      fc.assert(
        fc.property(bodyFor(schema), (body) => agree(schema, body)),
        { numRuns: 300 },
      );
    });
  }

  it('random junk of any shape, against every schema', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bodySchemas), fc.oneof(fc.anything(), fc.jsonValue(), fc.object()), ([, schema], body) => agree(schema, body)),
      { numRuns: 2000 },
    );
  });

  it('known precedence cases: the rule beats maxLength, the enum beats the type, the type comes first for integers', () => {
    const s: JsonSchema = {
      type: 'object',
      properties: {
        a: { type: 'string', maxLength: 3, allOf: [{ $comment: 'rule:mobile', pattern: '^[0-9]{11}$' }] },
        b: { type: 'string', enum: ['x'] },
        c: { type: 'integer', minimum: 1 },
      },
    };
    for (const body of [{ a: 'abcdef' }, { b: 5 }, { b: 'y' }, { c: 0.5 }, { a: 5 }]) agree(s, body);
    // a single type whose keyword group is used reports its type error after enum / allOf
    const late: JsonSchema = {
      type: 'object',
      properties: { d: { type: 'string', maxLength: 3, enum: ['a'] }, e: { type: 'string', maxLength: 3, allOf: [{ $comment: 'rule:printQty', minimum: 1 }] } },
    };
    agree(late, { d: 5, e: 0 });
    expect(validateLite(late, { d: 5, e: 0 }, metadata.rules)).toEqual({
      d: { key: 'validation.code' },
      e: { key: 'rule.printQty', args: { min: 1, max: 5000 } },
    });
    expect(validateLite(s, { a: 'abcdef', c: 0.5 }, metadata.rules)).toEqual({ a: { key: 'rule.mobile' }, c: { key: 'validation.integer' } });
  });

  it('maxBytes and maxDecimals carry their limits as placeholders', () => {
    const s: JsonSchema = { type: 'object', properties: { a: { type: 'string', maxBytes: 3 }, b: { type: 'number', maxDecimals: 2 } } };
    expect(validateLite(s, { a: '中文', b: 1.234 }, metadata.rules)).toEqual({
      a: { key: 'validation.maxBytes', args: { max: 3 } },
      b: { key: 'validation.decimals', args: { digits: 2 } },
    });
  });
});
