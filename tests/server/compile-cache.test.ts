/**
 * The dev server's compile cache (server/plugins/compile-cache.ts): a second app built with the
 * cache of a first compiles no schema again, and still refuses a body of the wrong type (strict
 * bodies) and serializes its answers as the first. Both backends.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifySchemaCompiler } from 'fastify';
import { cachedValidators, newCompileCache } from '../../server/plugins/compile-cache.ts';
import { build, type TestApp } from './helpers.ts';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
});

describe('compile cache', () => {
  it('compiles each part and schema once, and tells parts apart', () => {
    const calls: string[] = [];
    const inner: FastifySchemaCompiler<unknown> = ({ httpPart }) => {
      calls.push(String(httpPart));
      return () => true;
    };
    const cache = newCompileCache();
    const compile = cachedValidators(inner, cache);
    const route = (httpPart: string, schema: object) => ({ schema, httpPart, method: 'POST' as const, url: '/x' });
    const a = compile(route('body', { type: 'object', properties: { n: { type: 'number' } } }));
    const b = compile(route('body', { type: 'object', properties: { n: { type: 'number' } } }));
    compile(route('querystring', { type: 'object', properties: { n: { type: 'number' } } }));
    compile(route('body', { type: 'object', properties: { n: { type: 'string' } } }));
    expect(b).toBe(a);
    expect(calls).toEqual(['body', 'querystring', 'body']);
  });

  it('a second app reuses every compiled schema and answers as the first', { timeout: 120_000 }, async () => {
    const compileCache = newCompileCache();
    const first = await build({ seed: false, app: { compileCache } });
    opened.push(first);
    await first.app.ready();
    const sizes = [compileCache.validators.size, compileCache.serializers.size];
    expect(sizes[0]).toBeGreaterThan(5);
    expect(sizes[1]).toBeGreaterThan(5);
    const second = await build({ same: first, app: { compileCache } });
    opened.push(second);
    await second.app.ready();
    expect([compileCache.validators.size, compileCache.serializers.size]).toEqual(sizes);
    for (const t of [first, second]) {
      // strict bodies still: a number is not a user ID
      const refused = await t.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { userId: 123 } });
      expect(refused.statusCode).toBe(400);
      const meta = await t.app.inject({ url: '/api/meta' });
      expect(meta.statusCode).toBe(200);
      expect(meta.json().hash).toMatch(/^[0-9a-f]+$/);
    }
  });
});
