/**
 * GET /api/meta: the compiled metadata a client needs. Anonymous callers get only what the public
 * pages need (codegen/runtime/public-metadata.ts, the same part the admin's bundle carries), never
 * the tables, the permission matrix, the lockout threshold, token lifetimes or business constants.
 * After login the caller gets the screens, entities (without private fields), code tables, rules,
 * buttons and the entities' JSON Schemas (the admin validates its forms with them), and of the
 * permission matrix only its own profile's part. So does a session that must change its password or
 * enrol a second factor first: the page that asks for it is drawn in the session's layout.
 * The ETag is the metadata hash and profile.
 */
import type { FastifyInstance } from 'fastify';
import type { Profile } from '../../codegen/runtime/model.ts';
import { publicMetadata } from '../../codegen/runtime/public-metadata.ts';
import { sessionMetadata } from '../../codegen/runtime/session-metadata.ts';
import { metadata, schemas } from '../generated/index.ts';

/** What the public pages may know before anybody has logged in. */
export const anonymousMetadata = () => publicMetadata(metadata);

/** The metadata as one profile sees it: its own part of the permission matrix only. */
export const metadataFor = (profile: Profile) => sessionMetadata(metadata, schemas, profile);

export default async function metaRoutes(app: FastifyInstance) {
  const bodies = new Map<string, string>();
  const bodyOf = (profile: Profile | null) => {
    const key = profile ?? '';
    let b = bodies.get(key);
    if (!b) bodies.set(key, (b = JSON.stringify(profile ? metadataFor(profile) : anonymousMetadata())));
    return b;
  };
  app.get('/api/meta', { preHandler: app.optionalSession }, async (req, reply) => {
    const profile = req.principal?.profile ?? null;
    const etag = `"${metadata.hash}-${profile ?? 'anonymous'}"`;
    // the answer depends on who asks: never cached across callers
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'authorization').type('application/json');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(bodyOf(profile));
  });
}
