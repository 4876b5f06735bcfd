/**
 * GET /api/meta: the compiled metadata a client needs. Anonymous callers get only what the login
 * screen needs (title, languages, the page-size and message constants), never the tables, the
 * permission matrix, the password policy, lockout threshold or token lifetimes. After login the
 * caller gets the screens, entities (without private fields), code tables, rules and buttons, and
 * of the permission matrix only its own profile's part. The ETag is the metadata hash and profile.
 */
import type { FastifyInstance } from 'fastify';
import type { CompiledEntity, CompiledGrant, Profile } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';

/** What the login screen may know before anybody has logged in. */
export function anonymousMetadata() {
  const { titleKey, locales, defaultLocale, requestTimeoutMs, messageDurationMs, themeColor, settingsDefaults, dateFormat, dateTimeFormat } = metadata.app;
  return {
    hash: metadata.hash,
    app: { titleKey, locales, defaultLocale, requestTimeoutMs, messageDurationMs, themeColor, settingsDefaults, dateFormat, dateTimeFormat },
  };
}

const onlyProfile = (g: CompiledGrant | undefined, p: Profile): CompiledGrant => (g && g[p] ? { [p]: g[p] } : {});

function entityFor(e: CompiledEntity, p: Profile) {
  const fields = Object.fromEntries(Object.entries(e.fields).filter(([, f]) => !f.private));
  const access = Object.fromEntries(Object.entries(e.access).map(([op, g]) => [op, onlyProfile(g, p)]));
  const actions = Object.fromEntries(
    Object.entries(e.actions)
      .filter(([, a]) => !a.internal)
      .map(([n, a]) => [n, { ...a, allow: onlyProfile(a.allow, p) }]),
  );
  return { ...e, fields, fieldOrder: e.fieldOrder.filter((f) => fields[f]), access, actions };
}

/** The metadata as one profile sees it: its own part of the permission matrix only. */
export function metadataFor(profile: Profile) {
  const entities = Object.fromEntries(Object.entries(metadata.entities).map(([n, e]) => [n, entityFor(e, profile)]));
  const access = { ...metadata.access, profiles: { [profile]: metadata.access.profiles[profile] } };
  return {
    hash: metadata.hash,
    app: metadata.app,
    access,
    codeTables: metadata.codeTables,
    rules: metadata.rules,
    entities,
    resources: metadata.resources,
    screens: metadata.screens,
  };
}

export default async function metaRoutes(app: FastifyInstance) {
  const bodies = new Map<string, string>();
  const bodyOf = (profile: Profile | null) => {
    const key = profile ?? '';
    let b = bodies.get(key);
    if (!b) bodies.set(key, (b = JSON.stringify(profile ? metadataFor(profile) : anonymousMetadata())));
    return b;
  };
  app.get('/api/meta', { preHandler: app.optionalAuth }, async (req, reply) => {
    const profile = req.principal?.profile ?? null;
    const etag = `"${metadata.hash}-${profile ?? 'anonymous'}"`;
    // the answer depends on who asks: never cached across callers
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'authorization').type('application/json');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(bodyOf(profile));
  });
}
