/**
 * Compiled request validators and response serializers kept from one app to the next in the same
 * process. The dev server (server/dev.ts) builds a new app on every metadata edit, and compiling
 * every route's schemas again (Ajv, fast-json-stringify) was most of that rebuild; an edit changes
 * a few routes' schemas at most, the others get the functions compiled for the same schema before.
 * Both are pure functions of their schema and of compiler options that never change in a process,
 * so the schema's JSON is the key. Production builds one app and does not use it.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

export interface CompileCache {
  validators: Map<string, unknown>;
  serializers: Map<string, unknown>;
}

export const newCompileCache = (): CompileCache => ({ validators: new Map(), serializers: new Map() });

function remembered<F>(cache: Map<string, unknown>, key: string, compile: () => F): F {
  let fn = cache.get(key) as F | undefined;
  if (fn === undefined) cache.set(key, (fn = compile()));
  return fn;
}

/** The validator compiler `inner`, compiling each (part, schema) once per cache. */
export function cachedValidators(inner: FastifySchemaCompiler<unknown>, cache: CompileCache): FastifySchemaCompiler<unknown> {
  return (route) => remembered(cache.validators, `${route.httpPart}\0${JSON.stringify(route.schema)}`, () => inner(route));
}

/** Fastify's own serializer compiler (the one it uses by default), compiling each schema once per cache. */
export function cachedSerializers(cache: CompileCache): NonNullable<FastifyServerOptions['schemaController']> {
  const defaults = SerializerSelector();
  return {
    compilersFactory: {
      buildSerializer: (externalSchemas: unknown, options: unknown) => {
        const compile = defaults(externalSchemas, options as never);
        const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
        return (route: Parameters<typeof compile>[0]) => remembered(cache.serializers, `${context}\0${JSON.stringify(route.schema)}`, () => compile(route));
      },
    },
  };
}
