/**
 * The session's view of the metadata is made in one place (codegen/runtime/session-metadata.ts):
 * `npm run dev`'s page makes it from the admin's generated model (to swap an edited screen in
 * without waiting for the server's reload) and must get exactly what GET /api/meta answers the
 * same profile from the server's model.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledMetadata, Profile } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { sessionMetadata } from '../../codegen/runtime/session-metadata.ts';
import { metadataFor } from '../../server/routes/meta.ts';
import { metadata as serverMetadata } from '../../server/generated/index.ts';
import adminMetadata from '../../admin/src/generated/metadata.json' with { type: 'json' };
import adminSchemas from '../../admin/src/generated/schemas.json' with { type: 'json' };

const profiles = Object.keys(serverMetadata.access.profiles) as Profile[];

describe("the session's view of the metadata", () => {
  it.each(profiles)("made by the page from the admin's model is what GET /api/meta answers %s", (profile) => {
    const page = sessionMetadata(adminMetadata as unknown as CompiledMetadata, adminSchemas as unknown as Record<string, EntitySchemas>, profile);
    expect(JSON.parse(JSON.stringify(page))).toEqual(JSON.parse(JSON.stringify(metadataFor(profile))));
  });

  it("carries only the profile's own part of the matrix and no private field", () => {
    const [profile, other] = profiles as [Profile, Profile];
    const view = sessionMetadata(serverMetadata, {}, profile);
    expect(Object.keys(view.access.profiles)).toEqual([profile]);
    const grants = Object.values(view.entities).flatMap((e) => Object.values(e.access));
    expect(grants.some((g) => other in g)).toBe(false);
    const privateField = Object.values(serverMetadata.entities).flatMap((e) =>
      Object.entries(e.fields)
        .filter(([, f]) => f.private)
        .map(([n]) => [e.name, n]),
    );
    expect(privateField.length).toBeGreaterThan(0);
    for (const [entity, field] of privateField) expect(view.entities[entity!]!.fields).not.toHaveProperty(field!);
  });
});
