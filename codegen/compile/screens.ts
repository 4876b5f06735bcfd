/**
 * Screens, from metadata/screens/ and from the "screens" of entity files (their pointers start at
 * /screens/<i>): unique paths and names, title and labels in both languages, the resource, and
 * every field, filter, button, tab, related list and role they name.
 */
import type { MetadataSources } from '../load.ts';
import type { CompiledColumn, CompiledEntity, CompiledFilter, CompiledMetadata, CompiledScreen, Profile } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import type { RawColumn, RawEntity, RawScreen } from './raw.ts';

/** Where a screen is declared: its file and the pointer of the screen within it ('' for a file of its own). */
export interface ScreenSource {
  s: RawScreen;
  file: string;
  base: string;
}

export function screenSources(src: MetadataSources): ScreenSource[] {
  return [
    ...src.screens.map((f) => ({ s: f.data as RawScreen, file: f.file, base: '' })),
    ...src.entities.flatMap((f) =>
      ((f.data as RawEntity).screens ?? []).map((s, i) => ({ s: { resource: (f.data as RawEntity).resource, ...s }, file: f.file, base: `/screens/${i}` })),
    ),
  ];
}

type Model = Pick<CompiledMetadata, 'app' | 'access' | 'entities' | 'resources'>;

/** The compiled screens, in the order of `sources` (compileMetadata sorts them by path afterwards). */
export function compileScreens(ctx: CompileContext, model: Model, sources: ScreenSource[]): CompiledScreen[] {
  const { access, entities, resources } = model;
  const menuGroups = new Set(model.app.menuGroups.map((g) => g.key));
  const screens: CompiledScreen[] = [];
  const paths = new Map<string, string>();
  const screenNames = new Map<string, string>();
  const allButtons = (ent: CompiledEntity | undefined) => new Set([...Object.keys(access.buttons), ...Object.values(ent?.actions ?? {}).map((a) => a.button)]);
  for (const { s, file, base } of sources) {
    const r = ctx.at(base);
    const { err, needKey, codeOf } = r;
    if (paths.has(s.path)) err(file, '/path', `duplicate route path "${s.path}" (also in ${paths.get(s.path)})`);
    paths.set(s.path, file);
    if (screenNames.has(s.name)) err(file, '/name', `duplicate screen name "${s.name}" (also in ${screenNames.get(s.name)})`);
    screenNames.set(s.name, file);
    needKey(file, '/titleKey', s.titleKey, `screen "${s.name}"`);
    for (const [profile, key] of Object.entries(s.titleKeyFor ?? {})) {
      if (!access.profiles[profile as Profile]) r.unknown(file, `/titleKeyFor/${profile}`, 'profile', profile, Object.keys(access.profiles));
      needKey(file, `/titleKeyFor/${profile}`, key, `screen "${s.name}" for profile "${profile}"`);
      if (key === s.titleKey) err(file, `/titleKeyFor/${profile}`, `screen "${s.name}" gives profile "${profile}" its own titleKey again: drop the entry`);
    }
    if (s.menu?.group && !menuGroups.has(s.menu.group)) r.unknown(file, '/menu/group', 'menu group', s.menu.group, menuGroups);
    let ent: CompiledEntity | undefined;
    if (s.resource) {
      const en = resources[s.resource];
      if (!en) r.unknown(file, '/resource', 'resource', s.resource, Object.keys(resources));
      else ent = entities[en];
    }
    const needsResource = (key: string) => {
      if (!s.resource) err(file, `/${key}`, `"${key}" needs the screen to name a resource`);
    };
    const unknownField = (pointer: string, fieldName: string, e2: CompiledEntity) =>
      r.unknown(file, pointer, 'field', fieldName, e2.fieldOrder, { of: `of entity "${e2.name}"` });
    const columnOf = (c: RawColumn, pointer: string, e2: CompiledEntity | undefined): CompiledColumn => {
      const c2 = typeof c === 'string' ? { field: c } : c;
      const fd = e2?.fields[c2.field];
      if (e2 && !fd) unknownField(pointer, c2.field, e2);
      if (fd?.private) err(file, pointer, `field "${c2.field}" is private and can never be shown`);
      if (c2.labelKey) needKey(file, pointer, c2.labelKey, `column "${c2.field}"`);
      const fmt = c2.format ?? (fd?.type === 'date' ? 'date' : fd?.type === 'datetime' ? 'datetime' : undefined);
      return { field: c2.field, labelKey: c2.labelKey ?? fd?.labelKey ?? c2.field, ...(c2.width ? { width: c2.width } : {}), ...(fmt ? { format: fmt } : {}) };
    };
    const filterOf = (raw: Record<string, unknown> | undefined, pointer: string, e2: CompiledEntity | undefined): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(raw ?? {})) {
        const fd = e2?.fields[k];
        if (!e2) continue;
        if (!fd) {
          unknownField(`${pointer}/${k}`, k, e2);
          continue;
        }
        if (fd.type === 'code' && fd.codeTable) {
          out[k] = Array.isArray(val)
            ? val.map((x, i) => codeOf(file, `${pointer}/${k}/${i}`, fd.codeTable!, x))
            : codeOf(file, `${pointer}/${k}`, fd.codeTable, val);
        } else out[k] = val;
      }
      return out;
    };
    if (s.columns) needsResource('columns');
    if (s.filters) needsResource('filters');
    const columns = (s.columns ?? []).map((c, i) => columnOf(c, `/columns/${i}`, ent));
    const filters: CompiledFilter[] = (s.filters ?? []).map((raw, i) => {
      const fl = typeof raw === 'string' ? { field: raw } : raw;
      const fd = ent?.fields[fl.field];
      if (ent && !fd) unknownField(`/filters/${i}`, fl.field, ent);
      const op = fl.op ?? fd?.filter[0] ?? 'eq';
      if (fd && !fd.filter.includes(op))
        err(
          file,
          `/filters/${i}`,
          `field "${fl.field}" of entity "${ent!.name}" does not declare the filter "${op}" (it declares: ${fd.filter.join(', ') || 'none'})`,
        );
      return { field: fl.field, op, alwaysOn: !!fl.alwaysOn, labelKey: fd?.labelKey ?? fl.field };
    });
    const btns = allButtons(ent);
    (s.buttons ?? []).forEach((b, i) => {
      // a button is an action of the screen's entity (its name, or its "button") or one of access.json
      if (!btns.has(b))
        r.unknown(file, `/buttons/${i}`, 'button', b, btns, {
          of: ent
            ? `(entity "${ent.name}" has no action with that button, and metadata/access.json declares no such button)`
            : '(metadata/access.json declares no such button)',
        });
    });
    (s.form ?? []).forEach((fn, i) => {
      const fd = ent?.fields[fn];
      if (ent && !fd) unknownField(`/form/${i}`, fn, ent);
      if (fd?.private) err(file, `/form/${i}`, `field "${fn}" is private and can never be shown`);
    });
    if (s.defaultSort && ent) {
      const fd = ent.fields[s.defaultSort.field];
      if (!fd) unknownField('/defaultSort/field', s.defaultSort.field, ent);
      else if (!fd.sort && s.defaultSort.field !== ent.defaultSort.field)
        err(file, '/defaultSort/field', `field "${fd.name}" is not sortable (declare "sort": true on it)`);
    }
    const related = (s.related ?? []).map((rel, i) => {
      const en = resources[rel.resource];
      const re = en ? entities[en] : undefined;
      if (!re) r.unknown(file, `/related/${i}/resource`, 'resource', rel.resource, Object.keys(resources));
      else if (!re.fields[rel.target]) unknownField(`/related/${i}/target`, rel.target, re);
      if (rel.source && ent && !ent.fields[rel.source]) unknownField(`/related/${i}/source`, rel.source, ent);
      if (rel.titleKey) needKey(file, `/related/${i}/titleKey`, rel.titleKey, 'related list');
      return {
        resource: rel.resource,
        target: rel.target,
        source: rel.source ?? 'id',
        titleKey: rel.titleKey ?? re?.labelKey ?? rel.resource,
        columns: rel.columns.map((c, j) => columnOf(c, `/related/${i}/columns/${j}`, re)),
      };
    });
    const tabs = (s.tabs ?? []).map((t, i) => {
      needKey(file, `/tabs/${i}/titleKey`, t.titleKey, `tab "${t.key}"`);
      return { key: t.key, titleKey: t.titleKey, filter: filterOf(t.filter, `/tabs/${i}/filter`, ent) };
    });
    (s.roles ?? []).forEach((role, i) => {
      if (!['sys', 'user', 'admin'].includes(role)) r.unknown(file, `/roles/${i}`, 'role', role, ['sys', 'user', 'admin']);
    });
    screens.push({
      name: s.name,
      path: s.path,
      kind: s.kind,
      titleKey: s.titleKey,
      ...(s.titleKeyFor ? { titleKeyFor: s.titleKeyFor as CompiledScreen['titleKeyFor'] } : {}),
      public: !!s.public,
      roles: s.roles ?? [],
      hidden: !!s.hidden,
      ...(s.activeMenu ? { activeMenu: s.activeMenu } : {}),
      pinned: !!s.pinned,
      ...(s.menu ? { menu: s.menu } : {}),
      claimWarehouseOnly: !!s.claimWarehouseOnly,
      ...(s.resource ? { resource: s.resource } : {}),
      fixedFilter: filterOf(s.fixedFilter, '/fixedFilter', ent),
      ...(s.defaultSort ? { defaultSort: s.defaultSort } : {}),
      columns,
      filters,
      requireFilter: !!s.requireFilter,
      buttons: s.buttons ?? [],
      form: s.form ?? [],
      ...(s.editScreen ? { editScreen: s.editScreen } : {}),
      ...(s.listScreen ? { listScreen: s.listScreen } : {}),
      tabs,
      related,
      ...(s.component ? { component: s.component } : {}),
    });
  }
  return screens;
}
