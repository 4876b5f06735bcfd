/**
 * Lean pages (issue 21): the fields a list screen's rows need, derived from the screen's metadata,
 * so `GET /api/<resource>?screen=<name>` answers those and not every field of the entity (the
 * order search shows 18 of 32). The server computes it once per screen; the client only names
 * its screen, never a column list, so no caller can reach a field the full record would not hold
 * (private fields never are).
 *
 * A row needs, besides its columns:
 * - what identifies it: id, version (a versioned write), the title and identifying fields
 *   (dialogs and messages name the record by them);
 * - what decides its buttons in the browser (admin/src/providers/permissions.ts): the fields of
 *   every grant's row condition, the supplier fields an action names, each action's status
 *   field, the fields of editableWhen / deletableWhen / file.parentStates, the soft-delete flag;
 * - what its action dialogs show or pre-fill (action.show, perRecord.defaults);
 * - what opens its children (screen.related[].source).
 */
import type { CompiledEntity, CompiledGrant, CompiledScreen } from './model.ts';

const grantFields = (g: CompiledGrant | undefined): string[] => Object.values(g ?? {}).flatMap((p) => Object.keys(p?.where ?? {}));

/** The names of the fields a list screen's rows need, in the entity's field order, private fields left out. */
export function listFieldsOf(e: CompiledEntity, screen: Pick<CompiledScreen, 'columns' | 'related'>): string[] {
  const want = new Set<string>(['id', 'version', e.titleField, ...(e.identifyBy ?? [])]);
  if (e.statusField) want.add(e.statusField);
  if (e.softDelete) want.add(e.softDelete);
  for (const c of screen.columns) want.add(c.field);
  for (const r of screen.related) want.add(r.source);
  for (const g of Object.values(e.access)) for (const f of grantFields(g)) want.add(f);
  for (const f of [...Object.keys(e.editableWhen), ...Object.keys(e.deletableWhen), ...Object.keys(e.file?.parentStates ?? {})]) want.add(f);
  for (const a of Object.values(e.actions)) {
    if (a.statusField) want.add(a.statusField);
    for (const f of grantFields(a.allow)) want.add(f);
    for (const f of a.supplierFields ?? e.scope.supplierFields) want.add(f);
    for (const f of a.show ?? []) want.add(f);
    for (const f of Object.values(a.perRecord?.defaults ?? {})) want.add(f);
  }
  return e.fieldOrder.filter((n) => want.has(n) && !e.fields[n].private);
}
