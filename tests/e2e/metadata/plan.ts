/**
 * The browser suite's plan, computed from the compiled metadata (no screen is named here): which
 * demo account opens which screen in which language, how the screen is reached, and what the
 * account must and must not see there: toolbar buttons, row actions and record buttons, decided by
 * the server's own access functions (server/engine/access.ts) over the compiled access metadata.
 * A screen declared tomorrow is in the plan the moment codegen compiles it.
 */
import type { CompiledAction, CompiledEntity, CompiledMetadata, CompiledScreen, Locale, Profile, Role, Where } from '../../../codegen/runtime/model.ts';
import { LOCALES } from '../../../codegen/runtime/model.ts';
import { grantOf, operationGrant, screenRefusal, type Caller } from '../../../codegen/runtime/access-rules.ts';
import { DEMO_ACCOUNTS, DEMO_WAREHOUSES } from '../../../server/seed/base.ts';
import { metadata } from '../../../server/generated/index.ts';

export { LOCALES, metadata };

/** A demo account logged in at a warehouse (what the server knows of it when it decides), or nobody (user null). */
export interface Persona extends Caller {
  key: string;
  user: string | null;
  warehouse: string;
  isClaimWarehouse: boolean;
  /** the account's supplier code when its profile is supplier-scoped (the server's principal.supplierCode) */
  supplierCode: string | null;
}

const claimWarehouse = DEMO_WAREHOUSES.find((w) => w.isClaimWarehouse)!;
const otherWarehouse = DEMO_WAREHOUSES.find((w) => !w.isClaimWarehouse)!;

function persona(key: string, user: string, warehouse: (typeof DEMO_WAREHOUSES)[number]): Persona {
  const account = DEMO_ACCOUNTS.find((a) => a.userId === user);
  if (!account) throw new Error(`no demo account ${user}`);
  const profile = account.accountType as Profile;
  const role: Role = metadata.access.profiles[profile].role;
  const supplierCode = metadata.access.profiles[profile].supplierScoped ? account.departmentId : null;
  return { key, user, warehouse: warehouse.code, isClaimWarehouse: warehouse.isClaimWarehouse, profile, role, supplierCode };
}

/**
 * Who the suite logs in as: the first normal demo account of every profile that has one (supplier,
 * supplier administrator, internal staff), at a claim warehouse, and the supplier again at a
 * warehouse that is not a claim warehouse (the claim screens are refused there).
 */
export const PERSONAS: Persona[] = (() => {
  const list: Persona[] = [];
  for (const a of DEMO_ACCOUNTS) {
    if (a.status !== 'normal' || list.some((p) => p.profile === a.accountType)) continue;
    list.push(persona(a.accountType, a.userId, claimWarehouse));
  }
  const supplier = list.find((p) => p.profile === 'supplier')!;
  list.push(persona('supplierAtNonClaimWarehouse', supplier.user!, otherWarehouse));
  return list;
})();

/** Nobody logged in: opens the public pages (login, forgotten password ...); its profile and role decide nothing there. */
export const ANONYMOUS: Persona = { ...PERSONAS[0], key: 'anonymous', user: null };

/* ------------------------------------------------------------------ screens */

/** Kinds the shell draws around the others (error pages, redirects): the menu test opens the 401 page. */
export const SHELL_KINDS: readonly CompiledScreen['kind'][] = ['error', 'redirect'];

export const entityOf = (s: CompiledScreen | string | undefined): CompiledEntity | undefined => {
  const resource = typeof s === 'string' ? s : s?.resource;
  const name = resource ? metadata.resources[resource] : undefined;
  return name ? metadata.entities[name] : undefined;
};

export const screenNamed = (name: string | undefined): CompiledScreen | undefined => metadata.screens.find((s) => s.name === name);

/** May this persona open the screen (the rule the server's export and the admin's menu apply)? */
export const mayOpen = (s: CompiledScreen, p: Persona): boolean => !screenRefusal(s, p, entityOf(s));

/** The list screen a hidden screen (edit / show) is reached from: its listScreen, or the list naming it as editScreen. */
export function parentListOf(s: CompiledScreen): CompiledScreen | undefined {
  return screenNamed(s.listScreen) ?? metadata.screens.find((l) => l.kind === 'list' && l.editScreen === s.name);
}

export type Reach = { by: 'menu' } | { by: 'list'; list: CompiledScreen } | { by: 'address' };

/**
 * How a user gets to a screen: a public page (login, forgotten password) by its address, logged
 * out; any other by its menu entry, or without one from the list that opens it.
 */
export function reachOf(s: CompiledScreen): Reach | undefined {
  if (s.public) return { by: 'address' };
  if (s.menu && !s.hidden) return { by: 'menu' };
  const list = parentListOf(s);
  if (list?.menu && !list.hidden && (s.kind === 'show' || s.kind === 'edit')) return { by: 'list', list };
  return undefined;
}

export interface Visit {
  screen: CompiledScreen;
  persona: Persona;
  locale: Locale;
  reach: Reach;
}

/** The screens the suite opens: every metadata screen but the shell's, for every persona that may open it (public pages: nobody logged in). */
export function planVisits(): Visit[] {
  const visits: Visit[] = [];
  for (const p of [...PERSONAS, ANONYMOUS])
    for (const locale of LOCALES)
      for (const s of metadata.screens) {
        if (SHELL_KINDS.includes(s.kind) || !mayOpen(s, p) || s.public !== (p === ANONYMOUS)) continue;
        const reach = reachOf(s);
        if (!reach) continue; // reported by coverageProblems()
        if (reach.by === 'list' && !mayOpen(reach.list, p)) continue;
        visits.push({ screen: s, persona: p, locale, reach });
      }
  return visits;
}

/**
 * Each screen for each persona in one language, the languages in turn: the PostgreSQL pass's
 * visits (metadata-screens.spec.ts). What the database answers a screen does not depend on the
 * page's language, and the SQLite pass visits every screen in both (issue 34: CI's time).
 */
export function oneLanguageEach(visits: readonly Visit[]): Visit[] {
  const pairs = [...new Set(visits.map((v) => `${v.screen.name} | ${v.persona.key}`))];
  return visits.filter((v) => LOCALES[pairs.indexOf(`${v.screen.name} | ${v.persona.key}`) % LOCALES.length] === v.locale);
}

/**
 * One visit per screen on a phone (issue 21: one persona and language per screen is enough): the
 * languages in turn, and of the personas that may open the screen the one that may run the most of
 * its dialog actions, so the most dialogs are opened at the phone's width.
 */
export function phoneVisits(): Visit[] {
  const all = planVisits();
  return [...new Set(all.map((v) => v.screen))].map((s, i) => {
    const e = entityOf(s);
    const locale = LOCALES[i % LOCALES.length];
    const dialogs = (v: Visit) => (e ? screenActions(s, e).filter((a) => opensDialog(a) && mayAct(e, a, v.persona)).length : 0);
    return all.filter((v) => v.screen === s && v.locale === locale).reduce((best, v) => (dialogs(v) > dialogs(best) ? v : best));
  });
}

export const visitKey = (v: Pick<Visit, 'screen' | 'persona' | 'locale'>): string => `${v.screen.name} | ${v.persona.key} | ${v.locale}`;

/**
 * Why the plan would miss a screen: no way to reach it, nobody to open it, or an inconsistency that
 * would show a user a screen they may not read. Empty when every screen is covered.
 */
export function coverageProblems(): string[] {
  const problems: string[] = [];
  const visits = planVisits();
  for (const s of metadata.screens) {
    if (SHELL_KINDS.includes(s.kind)) continue;
    if (!reachOf(s)) problems.push(`${s.name}: neither a menu entry nor a list screen that opens it`);
    else if (!visits.some((v) => v.screen === s)) problems.push(`${s.name}: none of the personas (${PERSONAS.map((p) => p.key).join(', ')}) may open it`);
  }
  return problems;
}

/* ------------------------------------------------------------------ what a persona sees */

type Rec = Record<string, unknown>;

/** A grant's row condition holds for a record (as the server's SQL would decide it). */
export function matchesWhere(where: Where | null, record: Rec): boolean {
  if (!where) return true;
  return Object.entries(where).every(([field, values]) => values.some((v) => String(v) === String(record[field])));
}

export const mayDo = (e: CompiledEntity, op: 'read' | 'create' | 'update' | 'delete' | 'export', p: Persona): boolean =>
  !(e.claimWarehouseOnly && !p.isClaimWarehouse) && (op === 'read' && e.public ? true : !!operationGrant(e, op, p));

/** The actions a screen's buttons stand for (an action's `button`), engine-only ones left out. */
export const screenActions = (s: CompiledScreen, e: CompiledEntity): CompiledAction[] => Object.values(e.actions).filter((a) => !a.internal && s.buttons.includes(a.button));

/** The persona holds the action's grant (without a record: the button exists). */
export const mayAct = (e: CompiledEntity, a: CompiledAction, p: Persona): boolean => !(e.claimWarehouseOnly && !p.isClaimWarehouse) && !!grantOf(a.allow, p);

/** A soft-deleted record is read-only (the server answers error.recordDeleted). */
export const isDeleted = (e: CompiledEntity, record: Rec): boolean => !!e.softDelete && record[e.softDelete] === true;

/**
 * ... and with a record: the grant's row condition, the record's state, not soft-deleted, and for
 * an action with `supplierFields` a supplier-scoped persona must be one of the suppliers those
 * fields name (the direct supplier ships an order line; the others see it read-only).
 */
export function mayActOn(e: CompiledEntity, a: CompiledAction, p: Persona, record: Rec): boolean {
  const g = mayAct(e, a, p) ? grantOf(a.allow, p) : undefined;
  if (!g || !matchesWhere(g.where, record) || isDeleted(e, record)) return false;
  if (a.supplierFields && p.role !== 'admin' && p.supplierCode !== null && !a.supplierFields.some((f) => String(record[f] ?? '') === p.supplierCode)) return false;
  return !(a.statusField && a.from && !a.from.includes(String(record[a.statusField])));
}

/** The file child of a screen (upload / download go there). */
export const fileRelation = (s: CompiledScreen) => s.related.find((r) => !!entityOf(r.resource)?.file);

/**
 * The permission buttons (test ids btn-<name>) a list screen shows this persona: a declared button
 * whose operation or action the matrix grants; add and edit also need a form to open.
 */
export function expectedListButtons(s: CompiledScreen, p: Persona): string[] {
  const e = entityOf(s)!;
  const edit = screenNamed(s.editScreen);
  const hasForm = (edit?.kind === 'edit') || s.form.length > 0;
  const out: string[] = [];
  for (const a of screenActions(s, e)) if (mayAct(e, a, p)) out.push(a.name);
  for (const b of s.buttons) {
    if (b === 'search' && mayDo(e, 'read', p)) out.push('search');
    if (b === 'add' && hasForm && mayDo(e, 'create', p)) out.push('add');
    if (b === 'edit' && hasForm && mayDo(e, 'update', p)) out.push('edit');
    if (b === 'delete' && mayDo(e, 'delete', p)) out.push('delete');
    if (b === 'export' && mayDo(e, 'export', p)) out.push('export');
    const files = fileRelation(s);
    if (b === 'upload' && files && mayDo(entityOf(files.resource)!, 'create', p)) out.push('upload');
  }
  return [...new Set(out)].sort();
}

/** The row buttons a record's row shows: the screen's record actions this persona may run on it now. */
export function expectedRowActions(s: CompiledScreen, p: Persona, record: Rec): string[] {
  const e = entityOf(s)!;
  return screenActions(s, e)
    .filter((a) => !a.collection && mayActOn(e, a, p, record))
    .map((a) => a.name)
    .sort();
}

/** The buttons of an edit / show screen on a record: save (edit, when the record may be updated) and the actions its state allows. */
export function expectedRecordButtons(s: CompiledScreen, p: Persona, record: Rec): string[] {
  const e = entityOf(s)!;
  const out = expectedRowActions(s, p, record);
  if (s.kind === 'edit' && s.buttons.includes('save') && mayDo(e, 'update', p)) {
    const editable = Object.entries(e.editableWhen).every(([f, codes]) => record[f] === undefined || record[f] === null || codes.includes(String(record[f])));
    const g = operationGrant(e, 'update', p);
    if (editable && !isDeleted(e, record) && g && matchesWhere(g.where, record)) out.push('save');
  }
  return out.sort();
}

/** Names a test id btn-<name> may carry for this screen: every button and action name of the metadata. */
export function buttonVocabulary(s: CompiledScreen): Set<string> {
  const e = entityOf(s);
  return new Set([...Object.keys(metadata.access.buttons), ...Object.keys(e?.actions ?? {})]);
}

/** Does running the action open a dialog (inputs, a confirm question or a file)? Others run at once. */
export const opensDialog = (a: CompiledAction): boolean => a.inputOrder.length > 0 || a.confirm || !!a.upload;

/** Identifier fields of an entity (never cut off in a list). */
export const identifierFields = (e: CompiledEntity | undefined): string[] => Object.values(e?.fields ?? {}).filter((f) => f.identifier).map((f) => f.name);

/** Fields whose values are user data (free text): the other language may appear there. */
export const freeTextFields = (e: CompiledEntity | undefined): string[] => Object.values(e?.fields ?? {}).filter((f) => f.type === 'string' || f.type === 'text').map((f) => f.name);

export type { CompiledMetadata };
