/**
 * Access decisions from the compiled metadata, answered synchronously from the identity stored at
 * login (the same matrix the server enforces: server/engine/access.ts). react-admin's
 * authProvider.canAccess and the screens' button rendering both ask canAccessSync, so a button is
 * shown exactly when the server would accept the call.
 *
 *   screens:  a public screen is open; roles [] means any logged-in user; role 'admin' sees all;
 *             claim screens also need a claim warehouse (spec 2); a screen over a resource needs
 *             the read grant on it.
 *   entities: access[operation] grants per profile (export follows read unless declared);
 *             actions grant through their own `allow`; buttons map to an operation in metadata.
 */
import type { CompiledAction, CompiledEntity, CompiledGrant, CompiledScreen, Operation, Where } from '../../../codegen/runtime/model.ts';
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

function grantFor(grant: CompiledGrant | undefined, user: PortalUser): { where: Where | null } | undefined {
  if (user.roleId === 'admin') return { where: null };
  return grant?.[user.profile];
}

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
  const g = grantFor(op === 'export' && !e.access.export ? e.access.read : e.access[op], user);
  if (!g || !matches(g.where, record)) return false;
  if (op === 'update' && !inStates(e.editableWhen, record)) return false;
  if (op === 'delete' && !inStates(e.deletableWhen, record)) return false;
  return true;
}

function actionAllowed(a: CompiledAction, user: PortalUser, record?: Record<string, unknown> | null): boolean {
  const g = grantFor(a.allow, user);
  if (!g || !matches(g.where, record)) return false;
  // of the suppliers a row names, only those in the action's supplierFields may run it (e.g. the
  // direct supplier ships); a record without those fields does not block (the server decides)
  if (
    record &&
    a.supplierFields &&
    user.roleId !== 'admin' &&
    metadata.access.profiles[user.profile]?.supplierScoped &&
    a.supplierFields.some((f) => f in record)
  ) {
    if (!a.supplierFields.some((f) => record[f] !== undefined && record[f] !== null && String(record[f]) === String(user.departmentId ?? ''))) return false;
  }
  // with a record, the action must also be legal in the record's state (DESIGN 3.10)
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
 * May this user open this screen? Its roles, the claim warehouse, and the screen's resource: a
 * screen of data the user's profile may not read (account administration for internal staff
 * only, business screens for dealers) is neither in the menu nor opened (the server would answer 403).
 */
export function screenAllowed(screen: CompiledScreen, user: PortalUser | null): boolean {
  if (screen.public) return true;
  if (!user) return false;
  if (user.roleId !== 'admin' && screen.roles.length && !screen.roles.includes(user.roleId)) return false;
  if (screen.claimWarehouseOnly && !user.isClaimWarehouse) return false;
  // a screen over records the user may not read is not offered (the server would answer 403):
  // the interface log and account administration are internal staff's although their role is
  // 'user'; business screens are not a dealer's
  const e = entityOf(screen.resource);
  if (e && !e.public && !grantFor(e.access.read, user)) return false;
  return true;
}

export const canAccessScreen = (screen: CompiledScreen): boolean => screenAllowed(screen, getToken() ? getUser() : null);
