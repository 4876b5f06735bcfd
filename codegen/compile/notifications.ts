/**
 * The entities' "notify" declarations: which event (a new record, or one of the entity's
 * actions) tells which profiles, with which label, opening which screen. Runs once entities and
 * screens are compiled (it names both).
 */
import type { CompiledEntity, CompiledNotify, CompiledScreen, Profile } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';

interface RawNotify {
  on: string;
  labelKey: string;
  profiles: Profile[];
  screen: string;
}

export function compileNotifications(ctx: CompileContext, entities: Record<string, CompiledEntity>, screens: CompiledScreen[]): void {
  const byName = new Map(screens.map((s) => [s.name, s]));
  for (const f of ctx.src.entities) {
    const raw = (f.data as { name?: string; notify?: RawNotify[] }).notify;
    const e = entities[(f.data as { name?: string }).name ?? ''];
    if (!raw?.length || !e) continue;
    e.notify = raw.map((n, i): CompiledNotify => {
      const at = `/notify/${i}`;
      if (n.on !== 'create' && !e.actions[n.on])
        ctx.unknown(f.file, `${at}/on`, 'event', n.on, ['create', ...Object.keys(e.actions)], { of: `of entity "${e.name}"` });
      ctx.needKey(f.file, `${at}/labelKey`, n.labelKey, 'notification');
      const s = byName.get(n.screen);
      if (!s) ctx.unknown(f.file, `${at}/screen`, 'screen', n.screen, byName.keys());
      const byId = !!s && ['edit', 'show'].includes(s.kind);
      if (s && byId && s.resource !== e.resource) ctx.err(f.file, `${at}/screen`, `screen "${s.name}" shows ${s.resource}, not ${e.resource}`);
      if (s && !byId && !['list', 'dashboard'].includes(s.kind))
        ctx.err(f.file, `${at}/screen`, `screen "${s.name}" is a ${s.kind} screen: name an edit, show, list or dashboard screen`);
      return { on: n.on, labelKey: n.labelKey, profiles: n.profiles, screen: n.screen, path: s?.path ?? '/', byId };
    });
  }
}
