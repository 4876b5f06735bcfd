/**
 * A list page written from row arrays (server/engine/rows-json.ts, how PostgreSQL's list route
 * answers) is byte for byte what the response schema's serialiser made of Engine.list's records:
 * on every list screen's lean page and every entity's full page, as a supplier and as internal
 * staff, in several sorts; and for values the demo data may not hold (escapes, lone surrogates,
 * infinities, booleans stored as 0/1). Runs on both backends.
 */
import { describe, expect, it } from 'vitest';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { metadata } from '../../server/generated/index.ts';
import { responseSchema } from '../../server/routes/resources.ts';
import { listRowsJson, rowsJson } from '../../server/engine/rows-json.ts';
import { listFieldsOf } from '../../codegen/runtime/list-projection.ts';
import { DEMO_PRINCIPALS } from '../bench/list-cases.ts';
import type { CompiledEntity } from '../../codegen/runtime/model.ts';
import { serverSuite } from './helpers.ts';

const t = serverSuite(['sup01']);
const compile = SerializerSelector()(undefined, undefined as never);
const serialisers = new Map<CompiledEntity, (v: unknown) => string>();
/** Fastify's own serialiser of the list route's response schema */
function serialiser(e: CompiledEntity): (v: unknown) => string {
  let s = serialisers.get(e);
  if (!s) {
    s = compile({ schema: { type: 'array', items: responseSchema(e) }, method: 'GET', url: `/api/${e.resource}`, httpStatus: '200' } as never) as (
      v: unknown,
    ) => string;
    serialisers.set(e, s);
  }
  return s;
}

describe('a list page written from row arrays', () => {
  it("is the serialiser's text of the records, on every list screen and every full page, as supplier and staff", async () => {
    const engine = t.app.engine;
    const pages: { e: CompiledEntity; fields?: readonly string[]; label: string }[] = [
      ...metadata.screens
        .filter((s) => s.kind === 'list' && s.resource)
        .map((s) => {
          const e = metadata.entities[metadata.resources[s.resource!]];
          return { e, fields: listFieldsOf(e, s), label: s.name };
        }),
      ...Object.values(metadata.entities).map((e) => ({ e, label: `${e.name} (full page)` })),
    ];
    let rows = 0;
    let compared = 0;
    for (const { e, fields, label } of pages)
      for (const [who, p] of Object.entries(DEMO_PRINCIPALS))
        for (const sort of [undefined, '["id","DESC"]']) {
          const query = { range: '[0,199]', ...(sort ? { sort } : {}) };
          let r: Awaited<ReturnType<typeof engine.list>>;
          try {
            r = await engine.list(p, e, query, 'read', undefined, fields);
          } catch (err) {
            // a list this principal may not read is refused by both paths alike (listStatements)
            await expect(listRowsJson(engine, p, e, query, fields)).rejects.toThrow((err as Error).message);
            continue;
          }
          const page = await listRowsJson(engine, p, e, query, fields);
          expect(page.body.toString(), `${label} as ${who}, sort ${sort ?? 'default'}`).toBe(serialiser(e)(r.records));
          expect({ total: page.total, lowerBound: page.totalIsLowerBound, count: page.count }).toEqual({
            total: r.total,
            lowerBound: r.totalIsLowerBound,
            count: r.records.length,
          });
          rows += r.records.length;
          compared++;
        }
    expect(compared).toBeGreaterThan(pages.length);
    expect(rows).toBeGreaterThan(1000);
  });

  it('writes every kind of value as the serialiser does', () => {
    const e = metadata.entities.order;
    const visible = e.fieldOrder.filter((n) => !e.fields[n].private);
    const byType = (type: string) => visible.find((n) => e.fields[n].type === type)!;
    const str = byType('string');
    const int = byType('integer');
    const dec = byType('decimal');
    const bool = visible.find((n) => e.fields[n].type === 'boolean');
    const columns = [int, dec, str, ...(bool ? [bool] : []), 'id'];
    const values: unknown[][] = [
      [0, 1.5, 'plain', ...(bool ? [1] : []), 1],
      [-7, Infinity, 'quote " backslash \\ newline \n tab \t nul \u0000', ...(bool ? [0] : []), 2],
      [null, -Infinity, '零件 \ud800 lone \udfff surrogates 😀', ...(bool ? [null] : []), 3],
      [12345678901, 0.1 + 0.2, null, ...(bool ? [true] : []), 4],
      [1, 1e21, 'x'.repeat(100) + '"', ...(bool ? [false] : []), 5],
    ];
    const records = values.map((row) => {
      const r: Record<string, unknown> = {};
      columns.forEach((c, i) => (r[c] = bool && c === bool && row[i] !== null ? row[i] === 1 || row[i] === true : row[i]));
      return r;
    });
    expect(rowsJson(e, columns, values).toString()).toBe(serialiser(e)(records));
    expect(rowsJson(e, columns, []).toString()).toBe('[]');
  });
});
