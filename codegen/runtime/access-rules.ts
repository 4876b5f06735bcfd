/**
 * The access rules that need no database, in one place for the server (server/engine/access.ts
 * enforces them), the admin (admin/src/providers/permissions.ts shows and hides by them) and the
 * generated browser suite (tests/e2e/metadata/plan.ts plans by them). What needs the database (the
 * row scope as SQL) stays in the server.
 */
import type { CompiledEntity, CompiledGrant, CompiledScreen, Operation, Profile, Role, Where } from './model.ts';

/** What a grant decision needs of the caller: its role and its profile. */
export interface Caller {
  role: Role;
  profile: Profile;
}

/** ... and what a screen decision needs besides: whether the warehouse logged into is a claim warehouse. */
export interface ScreenCaller extends Caller {
  isClaimWarehouse: boolean;
}

/** The caller's grant (with its row condition), or undefined when not granted at all; role admin is granted everything. */
export function grantOf(grant: CompiledGrant | undefined, p: Caller): { where: Where | null } | undefined {
  if (p.role === 'admin') return { where: null };
  return grant?.[p.profile];
}

/** The caller's grant for an operation on an entity: export is reading many rows at once, so unless declared separately it follows read. */
export function operationGrant(e: CompiledEntity, op: Operation, p: Caller): { where: Where | null } | undefined {
  const g = op === 'export' && !e.access.export ? e.access.read : e.access[op];
  return grantOf(g, p);
}

/**
 * Why the caller may not open a screen, or null when it may: its roles ([] = any logged-in user;
 * role admin passes), the claim warehouse (the screen's or its entity's, for every role), then
 * reading the screen's entity (a screen over records the caller may not read is not offered: the
 * interface log and account administration are internal staff's although their role is 'user';
 * business screens are not a dealer's).
 */
export function screenRefusal(screen: CompiledScreen, p: ScreenCaller, entity?: CompiledEntity): 'error.forbidden' | 'error.notClaimWarehouse' | null {
  if (screen.public) return null;
  if (p.role !== 'admin' && screen.roles.length && !screen.roles.includes(p.role)) return 'error.forbidden';
  if ((screen.claimWarehouseOnly || entity?.claimWarehouseOnly) && !p.isClaimWarehouse) return 'error.notClaimWarehouse';
  if (entity && !entity.public && !operationGrant(entity, 'read', p)) return 'error.forbidden';
  return null;
}
