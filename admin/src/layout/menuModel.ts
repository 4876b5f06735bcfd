/**
 * The sidebar menu as data, built from the screens the user may open (spec 2 and 6): visible
 * screens with a `menu` entry, grouped by metadata.app.menuGroups in their declared order and
 * sorted by menu.order. A group with a single visible entry shows that entry directly, as the
 * legacy menu did; an empty group is not shown.
 */
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { screenTitleKey } from '../../../codegen/runtime/screen-title.ts';
import { metadata } from '../generated/index.ts';
import { screenAllowed } from '../providers/permissions.ts';
import type { PortalUser } from '../providers/storage.ts';
import { PAGE_SCREENS } from '../routing/routeTable.ts';

export interface MenuLeaf {
  kind: 'item';
  path: string;
  titleKey: string;
  icon?: string;
  screen: string;
}
export interface MenuGroup {
  kind: 'group';
  key: string;
  titleKey: string;
  icon?: string;
  items: MenuLeaf[];
}
export type MenuEntry = MenuLeaf | MenuGroup;

const leafFor =
  (user: PortalUser | null) =>
  (s: CompiledScreen): MenuLeaf => ({ kind: 'item', path: s.path, titleKey: screenTitleKey(s, user?.profile), icon: s.menu?.icon, screen: s.name });

export function buildMenu(user: PortalUser | null, screens: readonly CompiledScreen[] = PAGE_SCREENS): MenuEntry[] {
  const visible = screens.filter((s) => s.menu && !s.hidden && screenAllowed(s, user)).sort((a, b) => (a.menu!.order ?? 0) - (b.menu!.order ?? 0));
  const leaf = leafFor(user);
  const top: MenuEntry[] = visible.filter((s) => !s.menu!.group).map(leaf);
  for (const g of metadata.app.menuGroups) {
    const items = visible.filter((s) => s.menu!.group === g.key).map(leaf);
    if (items.length === 1) top.push(items[0]);
    else if (items.length > 1) top.push({ kind: 'group', key: g.key, titleKey: g.titleKey, icon: g.icon, items });
  }
  return top;
}

/** The group holding a menu path (to open it when its page is shown). */
export function groupOf(entries: MenuEntry[], path: string): MenuGroup | undefined {
  return entries.find((e): e is MenuGroup => e.kind === 'group' && e.items.some((i) => i.path === path));
}
