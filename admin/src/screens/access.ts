/**
 * Which buttons a user sees. A button is rendered only when the screen declares it AND the
 * permission matrix (providers/permissions.ts, the same rules the server enforces) allows it;
 * with a record, the record's state must allow it too (an action's `from` states, an entity's
 * editableWhen/deletableWhen). Everything is synchronous: no per-row network checks.
 */
import { codeLabelKey, type CompiledAction, type CompiledEntity, type CompiledScreen } from '../../../codegen/runtime/model.ts';
import { transitionRefusal } from '../../../codegen/runtime/transition-refusal.ts';
import { canAccessSync, notActingSupplierSync } from '../providers/permissions.ts';
import { metadata } from './meta.ts';

type Rec = Record<string, unknown> | null | undefined;

export const screenHas = (screen: CompiledScreen, button: string): boolean => screen.buttons.includes(button);

/** A plain (non-action) button: add -> create, edit -> edit, delete -> delete, export, upload, download ... */
export function mayButton(screen: CompiledScreen, button: string, resource: string, action: string, record?: Rec): boolean {
  return screenHas(screen, button) && canAccessSync({ action, resource, ...(record ? { record } : {}) });
}

/** An entity action, declared on the screen by its button; with a record its state must allow it. */
export function mayAction(screen: CompiledScreen, resource: string, a: CompiledAction, record?: Rec): boolean {
  if (!screenHas(screen, a.button)) return false;
  if (record && a.statusField && a.from) {
    const v = record[a.statusField];
    if (v === undefined || v === null || !a.from.includes(String(v))) return false;
  }
  return canAccessSync({ action: a.name, resource, ...(record ? { record } : {}) });
}

/** The record's state is one the action starts from (or the action names none). */
export const inFromState = (a: CompiledAction, r: Record<string, unknown>): boolean => !a.statusField || !a.from || a.from.includes(String(r[a.statusField]));

/** A record's name in messages, as the server's: its identifyBy fields (default: the title field) joined with '/'. */
export const recordLabel = (e: CompiledEntity, r: Record<string, unknown>): string => (e.identifyBy ?? [e.titleField]).map((n) => String(r[n] ?? '')).join('/');

/**
 * Why `a` may not run on these records: another supplier's line names the records (error.notActingSupplier), else the first
 * refused record's state; undefined when it may. Arguments ending in `Label` are i18n keys (the caller translates them, as the server does).
 */
export function actionRefusal(
  screen: CompiledScreen,
  e: CompiledEntity,
  a: CompiledAction,
  records: readonly Record<string, unknown>[],
): { key: string; args?: Record<string, string> } | undefined {
  const refused = records.filter((r) => !mayAction(screen, e.resource, a, r));
  if (!refused.length) return undefined;
  const others = refused.filter((r) => notActingSupplierSync(a, r));
  if (others.length) return { key: 'error.notActingSupplier', args: { items: others.map((r) => recordLabel(e, r)).join(', ') } };
  // the state's reason, as the server's 409 gives it: the action's own message only where it is true, else the row's status
  const first = refused[0];
  const status = a.statusField ? first[a.statusField] : undefined;
  if (status === undefined || status === null) return { key: a.illegalTransitionKey };
  const refusal = transitionRefusal(a, String(status));
  if (!refusal.messageKey) return { key: refusal.code };
  const table = e.fields[a.statusField!]?.codeTable;
  const statusLabel = table ? codeLabelKey(table, String(status)) : String(status);
  return { key: refusal.messageKey, args: { record: recordLabel(e, first), statusLabel, actionLabel: a.labelKey } };
}

/** A refusal's arguments for the message: those ending in `Label` are i18n keys, shown translated (the server's rule, engine/i18n.ts). */
export const translatedLabels = (args: Record<string, string> | undefined, translate: (key: string) => string): Record<string, string> | undefined =>
  args && Object.fromEntries(Object.entries(args).map(([k, v]) => [k, k.endsWith('Label') ? translate(v) : v]));

export const mayResource = (resource: string, action: string, record?: Rec): boolean => canAccessSync({ action, resource, ...(record ? { record } : {}) });

/**
 * Whether the files of `child` (a file entity) may be added, replaced or deleted under `parent`,
 * by the server's rules: the parent is not soft-deleted, is in one of file.parentStates, and in a
 * state its file.onUpload action starts from or leads to. Without a parent record: yes (the server decides).
 */
export function parentTakesFiles(child: CompiledEntity | undefined, parent?: Rec): boolean {
  if (!child?.file || !child.scope.parent || !parent) return true;
  const pe = metadata.entities[child.fields[child.scope.parent]?.ref ?? ''];
  if (!pe) return true;
  if (pe.softDelete && parent[pe.softDelete] === true) return false;
  for (const [f, codes] of Object.entries(child.file.parentStates ?? {})) {
    if (parent[f] !== undefined && parent[f] !== null && !codes.includes(String(parent[f]))) return false;
  }
  const a = child.file.onUpload ? pe.actions[child.file.onUpload.action] : undefined;
  if (a?.statusField && (a.from || a.to) && parent[a.statusField] !== undefined) {
    const st = String(parent[a.statusField]);
    if (!(a.from ?? []).includes(st) && !(a.to ?? []).includes(st)) return false;
  }
  return true;
}
