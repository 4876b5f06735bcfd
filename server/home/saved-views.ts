/**
 * Saved views of list screens: a user keeps the current search, sort, column choice and tab of a
 * list under a name, on the server per account (so they follow the user to another browser; an
 * account never reads another's, so nothing crosses suppliers). One view per screen may be the
 * account's default, which the list opens with. What a view holds is checked against the screen's
 * metadata: only filters the screen declares, a sortable field, its own columns and tabs, so a
 * view can never ask the list for more than the screen offers (and the list API checks it again).
 */
import type { CompiledEntity, CompiledMetadata, CompiledScreen } from '../../codegen/runtime/model.ts';
import { screenRefusal } from '../../codegen/runtime/access-rules.ts';
import type { Db } from '../db/types.ts';
import type { SavedView, ViewState } from '../../codegen/runtime/saved-view.ts';
import { badRequest, conflict, notFound } from '../engine/errors.ts';
import { metadata } from '../generated/index.ts';
import { SINGLE_LINE_RULE } from '../../codegen/runtime/field-schema.ts';
import type { Principal } from '../engine/principal.ts';

export type { SavedView, ViewState };

interface Row {
  id: number;
  screen: string;
  name: string;
  state: string;
  is_default: number;
  updated_at: string;
}

const toView = (r: Row): SavedView => ({
  id: Number(r.id),
  screen: r.screen,
  name: r.name,
  state: JSON.parse(r.state) as ViewState,
  isDefault: Number(r.is_default) === 1,
  updatedAt: r.updated_at,
});

const invalid = (what: string) => badRequest('error.invalidView', { what });

/** The list screen a view belongs to, if the caller may open it (else 404, as for a screen that does not exist). */
export function viewScreen(meta: CompiledMetadata, p: Principal, name: string): { screen: CompiledScreen; entity: CompiledEntity } {
  const screen = meta.screens.find((s) => s.name === name && s.kind === 'list');
  const entity = screen?.resource ? meta.entities[meta.resources[screen.resource]] : undefined;
  if (!screen || !entity || screenRefusal(screen, p, entity)) throw notFound();
  return { screen, entity };
}

/** The filter keys a screen's search may hold (FilterBar's keys: eq/in `field`, contains `field_like`, range `field_gte`/`field_lte`). */
function filterKeys(screen: CompiledScreen, entity: CompiledEntity): Set<string> {
  const keys = screen.filters.flatMap((f) => (f.op === 'contains' ? [`${f.field}_like`] : f.op === 'range' ? [`${f.field}_gte`, `${f.field}_lte`] : [f.field]));
  return new Set([...keys, ...(entity.softDelete ? ['includeDeleted'] : [])]);
}

const scalar = (v: unknown) => (typeof v === 'string' && v.length <= 200) || typeof v === 'number' || typeof v === 'boolean';

/** Checks a view's state against its screen; answers it without anything undeclared. */
export function checkState(screen: CompiledScreen, entity: CompiledEntity, raw: unknown): ViewState {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('state');
  const s = raw as Record<string, unknown>;
  const allowed = filterKeys(screen, entity);
  const filter = (s.filter ?? {}) as Record<string, unknown>;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw invalid('filter');
  for (const [k, v] of Object.entries(filter)) {
    if (!allowed.has(k)) throw invalid(`filter ${k}`);
    if (!(scalar(v) || (Array.isArray(v) && v.length <= 50 && v.every(scalar)))) throw invalid(`filter ${k}`);
  }
  const out: ViewState = { filter };
  if (s.sort !== undefined) {
    const sort = s.sort as { field?: unknown; order?: unknown };
    const f = typeof sort?.field === 'string' ? entity.fields[sort.field] : undefined;
    if (!f || !(f.sort || f.name === entity.defaultSort.field || f.name === screen.defaultSort?.field) || !['ASC', 'DESC'].includes(String(sort.order)))
      throw invalid('sort');
    out.sort = { field: f.name, order: sort.order as 'ASC' | 'DESC' };
  }
  if (s.columns !== undefined) {
    const cols = s.columns;
    const mine = new Set(screen.columns.map((c) => c.field));
    if (!Array.isArray(cols) || !cols.length || !cols.every((c) => typeof c === 'string' && mine.has(c))) throw invalid('columns');
    out.columns = [...new Set(cols as string[])];
  }
  if (s.tab !== undefined) {
    if (!screen.tabs.some((t) => t.key === s.tab)) throw invalid('tab');
    out.tab = s.tab as string;
  }
  return out;
}

/** the engine's rule for every single-line text (metadata/rules/text.json): controls, separators, direction marks */
const SINGLE_LINE = new RegExp(metadata.rules[SINGLE_LINE_RULE].pattern!, 'u');

export function checkName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name || name.length > 50 || !SINGLE_LINE.test(name)) throw invalid('name');
  return name;
}

const COLUMNS = 'id, screen, name, state, is_default, updated_at';

export class SavedViews {
  constructor(private readonly db: Db) {}

  async list(p: Principal, screen: string): Promise<SavedView[]> {
    const rows = await this.db.all<Row>(`SELECT ${COLUMNS} FROM _saved_views WHERE account_id = ? AND screen = ? ORDER BY name`, [p.accountId, screen]);
    return rows.map(toView);
  }

  async create(p: Principal, screen: string, name: string, state: ViewState, isDefault: boolean): Promise<SavedView> {
    return this.db.transaction(async (q) => {
      if (await q.get(`SELECT 1 AS x FROM _saved_views WHERE account_id = ? AND screen = ? AND name = ?`, [p.accountId, screen, name]))
        throw conflict('error.viewNameTaken', { name });
      if (isDefault) await q.run(`UPDATE _saved_views SET is_default = 0 WHERE account_id = ? AND screen = ?`, [p.accountId, screen]);
      const now = new Date().toISOString();
      const row = await q.get<Row>(
        `INSERT INTO _saved_views (account_id, screen, name, state, is_default, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
        [p.accountId, screen, name, JSON.stringify(state), isDefault ? 1 : 0, now, now],
      );
      return toView(row!);
    });
  }

  /** Its own view of a screen the caller may still open, else 404. */
  async own(p: Principal, id: number): Promise<SavedView> {
    const row = await this.db.get<Row>(`SELECT ${COLUMNS} FROM _saved_views WHERE id = ? AND account_id = ?`, [id, p.accountId]);
    if (!row) throw notFound();
    return toView(row);
  }

  async update(p: Principal, id: number, change: { name?: string; state?: ViewState; isDefault?: boolean }): Promise<SavedView> {
    return this.db.transaction(async (q) => {
      const row = await q.get<Row>(`SELECT ${COLUMNS} FROM _saved_views WHERE id = ? AND account_id = ?`, [id, p.accountId]);
      if (!row) throw notFound();
      if (change.name !== undefined && change.name !== row.name)
        if (await q.get(`SELECT 1 AS x FROM _saved_views WHERE account_id = ? AND screen = ? AND name = ?`, [p.accountId, row.screen, change.name]))
          throw conflict('error.viewNameTaken', { name: change.name });
      if (change.isDefault) await q.run(`UPDATE _saved_views SET is_default = 0 WHERE account_id = ? AND screen = ?`, [p.accountId, row.screen]);
      const updated = await q.get<Row>(`UPDATE _saved_views SET name = ?, state = ?, is_default = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`, [
        change.name ?? row.name,
        change.state ? JSON.stringify(change.state) : row.state,
        change.isDefault === undefined ? Number(row.is_default) : change.isDefault ? 1 : 0,
        new Date().toISOString(),
        id,
      ]);
      return toView(updated!);
    });
  }

  async remove(p: Principal, id: number): Promise<void> {
    const r = await this.db.run(`DELETE FROM _saved_views WHERE id = ? AND account_id = ?`, [id, p.accountId]);
    if (!r.changes) throw notFound();
  }
}
