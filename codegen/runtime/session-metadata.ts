/**
 * The metadata as one logged-in profile sees it: the screens, entities (without private fields),
 * code tables, rules and the entities' JSON Schemas, and of the permission matrix only its own
 * profile's part. `GET /api/meta` answers it to a session (server/routes/meta.ts); `npm run dev`'s
 * page makes the same view of an edited metadata itself, so that a new column or button is drawn
 * without waiting for the server's reload (admin/src/providers/metadataSwap.ts).
 */
import type { CompiledEntity, CompiledGrant, CompiledMetadata, Profile } from './model.ts';
import type { EntitySchemas } from './field-schema.ts';

const onlyProfile = (g: CompiledGrant | undefined, p: Profile): CompiledGrant => (g && g[p] ? { [p]: g[p] } : {});

function entityFor(e: CompiledEntity, p: Profile) {
  const fields = Object.fromEntries(Object.entries(e.fields).filter(([, f]) => !f.private));
  const access = Object.fromEntries(Object.entries(e.access).map(([op, g]) => [op, onlyProfile(g, p)]));
  // internal actions too: nobody calls them, but the admin reads their states (an upload's onUpload action
  // tells which parent states take files: screens/access.ts parentTakesFiles)
  const actions = Object.fromEntries(Object.entries(e.actions).map(([n, a]) => [n, { ...a, allow: onlyProfile(a.allow, p) }]));
  return { ...e, fields, fieldOrder: e.fieldOrder.filter((f) => fields[f]), access, actions };
}

/** The session's view of `metadata` for `profile`, with the entities' JSON Schemas (the generated file's banner left out). */
export function sessionMetadata(metadata: CompiledMetadata, schemas: Record<string, EntitySchemas | string>, profile: Profile) {
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
    schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => k !== '$comment')) as Record<string, EntitySchemas>,
  };
}
