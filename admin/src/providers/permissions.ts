/**
 * Access decisions from the compiled metadata, answered synchronously from the identity stored at
 * login: the same matrix the server enforces, and the grant and screen rules themselves shared with
 * it (codegen/runtime/access-rules.ts). react-admin's authProvider.canAccess and the screens' button
 * rendering both ask canAccessSync, so a button is shown exactly when the server would accept the call.
 *
 *   screens:  a public screen is open; roles [] means any logged-in user; role 'admin' sees all;
 *             claim screens also need a claim warehouse (spec 2); a screen over a resource needs
 *             the read grant on it.
 *   entities: access[operation] grants per profile (export follows read unless declared);
 *             actions grant through their own `allow`; buttons map to an operation in metadata.
 */
import type { CompiledAction, CompiledEntity, CompiledGrant, CompiledScreen, Operation, Where } from '../../../codegen/runtime/model.ts';
import { grantOf, operationGrant, screenRefusal, type ScreenCaller } from '../../../codegen/runtime/access-rules.ts';
import { metadata } from '../generated/index.ts';
import { getToken, getUser, type PortalUser } from './storage.ts';

export interface AccessParams {
  action: string;
  resource?: string;
  record?: Record<string, unknown> | null;
}

/** react-admin's page and button actions, and our button names without an operation, as operations. */
const RA_ACTIONS: Record<string, Operation> = {
  list: 'read',
  show: 'read',
  read: 'read',
  search: 'read',
  print: 'read',
  edit: 'update',
  update: 'update',
  create: 'create',
  upload: 'create',
  delete: 'delete',
  export: 'export',
  clone: 'create',
};

export const entityOf = (resource: string | undefined): CompiledEntity | undefined => {
  const name = resource ? metadata.resources[resource] : undefined;
  return name ? metadata.entities[name] : undefined;
};

/** The user as the shared access rules (codegen/runtime/access-rules.ts) see a caller. */
const callerOf = (user: PortalUser): ScreenCaller => ({ role: user.roleId, profile: user.profile, isClaimWarehouse: user.isClaimWarehouse });

const grantFor = (grant: CompiledGrant | undefined, user: PortalUser) => grantOf(grant, callerOf(user));

/** A row condition holds when every listed field has one of its allowed stored values. */
function matches(where: Where | null, record: Record<string, unknown> | null | undefined): boolean {
  if (!where || !record) return true;
  return Object.entries(where).every(([field, values]) => !(field in record) || values.some((v) => v === record[field] || String(v) === String(record[field])));
}

/** Record in one of the stored codes (a missing field does not block: the server decides). */
function inStates(states: Record<string, string[]> | undefined, record: Record<string, unknown> | null | undefined): boolean {
  if (!states || !record) return true;
  return Object.entries(states).every(([field, codes]) => record[field] === undefined || record[field] === null || codes.includes(String(record[field])));
}

function operationAllowed(e: CompiledEntity, op: Operation, user: PortalUser, record?: Record<string, unknown> | null): boolean {
  if (op === 'read' && e.public) return true;
  const g = operationGrant(e, op, callerOf(user));
  if (!g || !matches(g.where, record)) return false;
  if (op === 'update' && !inStates(e.editableWhen, record)) return false;
  if (op === 'delete' && !inStates(e.deletableWhen, record)) return false;
  return true;
}

/** A supplier-scoped user who is none of the suppliers the action's supplierFields name on the record (a line of another direct supplier). */
function notTheActingSupplier(a: CompiledAction, user: PortalUser, record: Record<string, unknown>): boolean {
  if (!a.supplierFields || user.roleId === 'admin' || !metadata.access.profiles[user.profile]?.supplierScoped) return false;
  if (!a.supplierFields.some((f) => f in record)) return false;
  return !a.supplierFields.some((f) => record[f] !== undefined && record[f] !== null && String(record[f]) === String(user.departmentId ?? ''));
}

/** The logged-in user is not the supplier that may run `a` on `record` (its reason: error.notActingSupplier, not the state). */
export function notActingSupplierSync(a: CompiledAction, record: Record<string, unknown>): boolean {
  const user = getToken() ? getUser() : null;
  return !!user && notTheActingSupplier(a, user, record);
}

function actionAllowed(a: CompiledAction, user: PortalUser, record?: Record<string, unknown> | null): boolean {
  const g = grantFor(a.allow, user);
  if (!g || !matches(g.where, record)) return false;
  // of the suppliers a row names, only those in the action's supplierFields may run it (e.g. the
  // direct supplier ships); a record without those fields does not block (the server decides)
  if (record && notTheActingSupplier(a, user, record)) return false;
  // with a record, the action must also be legal in the record's state (docs/design.md 3.10)
  if (record && a.statusField && a.from && record[a.statusField] !== undefined && record[a.statusField] !== null) {
    return a.from.includes(String(record[a.statusField]));
  }
  return true;
}

/** The entity action an action/button name stands for (actions are matched by name, then by button). */
function findAction(e: CompiledEntity, name: string): CompiledAction | undefined {
  return e.actions[name] ?? Object.values(e.actions).find((a) => a.button === name);
}

/** The decision for one user; exported for tests. */
export function decide(params: AccessParams, user: PortalUser | null): boolean {
  if (!user) return false;
  const e = entityOf(params.resource);
  if (!e) return user.roleId === 'admin';
  // for every role, as the server (engine/access.ts)
  if (e.claimWarehouseOnly && !user.isClaimWarehouse) return false;
  const { action, record } = params;
  const act = findAction(e, action);
  // a soft-deleted record is read-only: no action, edit or delete (the server answers error.recordDeleted)
  const deleted = !!(e.softDelete && record && record[e.softDelete] === true);
  if (act) return !deleted && actionAllowed(act, user, record);
  const op = RA_ACTIONS[action] ?? metadata.access.buttons[action]?.operation;
  if (!op) return user.roleId === 'admin';
  if (deleted && op !== 'read' && op !== 'export') return false;
  return operationAllowed(e, op, user, record);
}

/** canAccess for the screens and for authProvider.canAccess: the stored identity, no network. */
export function canAccessSync(params: AccessParams): boolean {
  return decide(params, getToken() ? getUser() : null);
}

/**
 * May this user open this screen? The rule the server enforces (screenRefusal): its roles, the claim
 * warehouse, and reading the screen's resource (a screen the server would answer 403 on is neither in
 * the menu nor opened).
 */
/** Why the user may not open the screen (the server's screenRefusal), null when it may. */
export function screenRefusalOf(screen: CompiledScreen, user: PortalUser | null): ReturnType<typeof screenRefusal> {
  if (screen.public) return null;
  return user ? screenRefusal(screen, callerOf(user), entityOf(screen.resource)) : 'error.forbidden';
}

export function screenAllowed(screen: CompiledScreen, user: PortalUser | null): boolean {
  if (screen.public) return true;
  return !!user && !screenRefusal(screen, callerOf(user), entityOf(screen.resource));
}

export const canAccessScreen = (screen: CompiledScreen): boolean => screenAllowed(screen, getToken() ? getUser() : null);
