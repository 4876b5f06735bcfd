/**
 * `GET /api/<resource>?screen=<name>`: a lean page (issue 21). The list answers only the fields
 * the named list screen needs (codegen/runtime/list-projection.ts), computed once per screen. The
 * screen must be a list screen of this resource that the caller may open (the same rule as its
 * menu entry and its export: screenRefusal), else 404 / 403; without `screen` the list answers
 * every visible field, as before. The client names a screen, never columns: a lean page is always
 * a subset of the full one.
 */
import type { CompiledEntity, CompiledScreen } from '../../codegen/runtime/model.ts';
import { listFieldsOf } from '../../codegen/runtime/list-projection.ts';
import { metadata } from '../generated/index.ts';
import { screenRefusal } from '../engine/access.ts';
import { badRequest, forbidden, notFound } from '../engine/errors.ts';
import type { Principal } from '../engine/principal.ts';

const projections = new WeakMap<CompiledScreen, readonly string[]>();

/** The lean page's fields for `name` (undefined without a screen: every visible field). */
export function leanFields(e: CompiledEntity, name: unknown, p: Principal | null): readonly string[] | undefined {
  if (name === undefined || name === '') return undefined;
  if (typeof name !== 'string') throw badRequest('error.malformedQuery', { param: 'screen' });
  const screen = metadata.screens.find((s) => s.name === name && s.kind === 'list' && s.resource === e.resource);
  if (!screen) throw notFound();
  if (!screen.public) {
    if (!p) throw forbidden();
    const refusal = screenRefusal(screen, p, e);
    if (refusal) throw forbidden(refusal);
  }
  let fields = projections.get(screen);
  if (!fields) projections.set(screen, (fields = listFieldsOf(e, screen)));
  return fields;
}
