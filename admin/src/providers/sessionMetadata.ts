/**
 * The compiled metadata of this page's session. The bundle carries only the public part (the sign-in
 * and error pages: codegen/runtime/public-metadata.ts), so downloading the portal's JavaScript tells
 * nobody the tables, the permission matrix or the account policies. A page that starts with a token
 * asks GET /api/meta for the rest (entities, screens, code tables, schemas, and of the matrix only
 * its own profile's part) and installs it before the app renders; a login installs it in the open
 * sign-in page (auth/enterSession.ts). What is built from the metadata once (the route table) is
 * rebuilt on each installation (onMetadataInstalled); everything else reads it when it renders.
 */
import type { CompiledMetadata } from '../../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../../codegen/runtime/field-schema.ts';
import { installMetadata } from '../generated/index.ts';
import { UNAVAILABLE_STATUSES } from './connection.ts';
import { getToken } from './storage.ts';

/** How long the page waits before asking a server that cannot be reached again (the dev loop restarting it). */
const RETRY_MS = 1000;

export type SessionKind = 'session' | 'public';

/** GET /api/meta's answer to a logged-in caller: the metadata as its profile sees it, with the entities' JSON Schemas. */
export type SessionMetaAnswer = CompiledMetadata & { schemas?: Record<string, EntitySchemas> };

const installed = new Set<() => void>();
/** Calls `rebuild` after each installation, for what is built from the metadata once rather than read at render. */
export function onMetadataInstalled(rebuild: () => void): void {
  installed.add(rebuild);
}

/** Installs a logged-in caller's answer; false when the answer is not one (the public part has no schemas). */
export function installSessionAnswer(answer: SessionMetaAnswer): boolean {
  const { schemas, ...meta } = answer;
  if (!schemas || !meta.entities) return false;
  installMetadata(meta, schemas);
  for (const rebuild of installed) rebuild();
  return true;
}

/**
 * Installs the session's metadata when the stored token is accepted. 'public' without a token or
 * when the server refuses it: the layout's session guard then says so and sends the user to login.
 * A server that cannot be reached is waited for (onWaiting tells the page), the token kept.
 */
export async function loadSessionMetadata(onWaiting: (waiting: boolean) => void = () => {}): Promise<SessionKind> {
  const token = getToken();
  if (!token) return 'public';
  for (;;) {
    let res: Response | null;
    try {
      res = await fetch('/api/meta', { headers: { authorization: `Bearer ${token}` } });
    } catch {
      res = null; // no answer at all: the server is not there (yet)
    }
    if (res && !UNAVAILABLE_STATUSES.has(res.status)) {
      onWaiting(false);
      if (!res.ok) return 'public';
      return installSessionAnswer((await res.json()) as SessionMetaAnswer) ? 'session' : 'public';
    }
    onWaiting(true);
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}
