/** canAccess against the metadata matrix, screens by role and warehouse, and the menus they make. */
import { afterEach, describe, expect, it } from 'vitest';
import type { CompiledScreen } from '../../codegen/runtime/model.ts';
import { metadata } from '../../admin/src/generated/index.ts';
import { authProvider } from '../../admin/src/providers/authProvider.ts';
import { canAccessSync, decide, screenAllowed } from '../../admin/src/providers/permissions.ts';
import { setToken, setUser, type PortalUser } from '../../admin/src/providers/storage.ts';
import { buildMenu, type MenuEntry } from '../../admin/src/layout/menuModel.ts';
import { resetBrowserState, supplierUser } from './helpers.ts';

afterEach(resetBrowserState);

const supplier: PortalUser = { ...supplierUser, roleId: 'user', roles: ['user'] } as PortalUser;
const staff: PortalUser = { ...supplier, userId: 'staff01', accountType: '0', profile: 'internal' };
const supAdmin: PortalUser = { ...supplier, userId: 'supadmin', accountType: '4', profile: 'supplierAdmin', roleId: 'sys', roles: ['sys'], admin: true };
const root: PortalUser = { ...supplier, roleId: 'admin', roles: ['admin'], profile: 'internal' };
const atPdc02 = (u: PortalUser): PortalUser => ({ ...u, warehouseCode: 'PDC02', isClaimWarehouse: false });
const screen = (name: string) => metadata.screens.find((s) => s.name === name) as CompiledScreen;

describe('canAccess: entity grants by profile', () => {
  it('reads and lists what the profile is granted', () => {
    expect(decide({ action: 'list', resource: 'orders' }, supplier)).toBe(true);
    expect(decide({ action: 'list', resource: 'orders' }, supAdmin)).toBe(false);
    expect(decide({ action: 'list', resource: 'notices' }, supAdmin)).toBe(true);
    expect(decide({ action: 'list', resource: 'accounts' }, supplier)).toBe(false);
  });
  it('create / edit / delete follow their own grants', () => {
    expect(decide({ action: 'create', resource: 'notices' }, supAdmin)).toBe(true);
    expect(decide({ action: 'create', resource: 'notices' }, supplier)).toBe(false);
    expect(decide({ action: 'edit', resource: 'stock-adjustments' }, supplier)).toBe(true);
    expect(decide({ action: 'edit', resource: 'stock-adjustments' }, staff)).toBe(false);
    expect(decide({ action: 'delete', resource: 'consulting-fee-items' }, staff)).toBe(true);
    expect(decide({ action: 'delete', resource: 'consulting-fee-items' }, supplier)).toBe(false);
  });
  it('export follows read unless declared', () => {
    expect(decide({ action: 'export', resource: 'orders' }, supplier)).toBe(true);
    expect(decide({ action: 'export', resource: 'notices' }, supAdmin)).toBe(true);
  });
  it('buttons map to their operation (search -> read, add -> create)', () => {
    expect(decide({ action: 'search', resource: 'notices' }, supplier)).toBe(true);
    expect(decide({ action: 'add', resource: 'notices' }, supplier)).toBe(false);
    expect(decide({ action: 'add', resource: 'notices' }, supAdmin)).toBe(true);
  });
  it('row conditions of a grant apply to a given record', () => {
    expect(decide({ action: 'show', resource: 'notices', record: { status: '0', deleted: false } }, supplier)).toBe(true);
    expect(decide({ action: 'show', resource: 'notices', record: { status: '1', deleted: false } }, supplier)).toBe(false);
    expect(decide({ action: 'show', resource: 'notices', record: { status: '1' } }, supAdmin)).toBe(true);
  });
  it('public entities are readable by everyone logged in', () => {
    expect(decide({ action: 'list', resource: 'warehouses' }, supplier)).toBe(true);
  });
});

describe('canAccess: actions', () => {
  it('an action is granted by its allow list', () => {
    expect(decide({ action: 'confirm', resource: 'orders' }, supplier)).toBe(true);
    expect(decide({ action: 'confirm', resource: 'orders' }, staff)).toBe(false);
    expect(decide({ action: 'adjust', resource: 'stock-adjustments' }, staff)).toBe(true);
    expect(decide({ action: 'adjust', resource: 'stock-adjustments' }, supplier)).toBe(false);
    expect(decide({ action: 'activate', resource: 'notices' }, supAdmin)).toBe(true);
  });
  it("with a record, the record's state must allow the action", () => {
    expect(decide({ action: 'confirm', resource: 'orders', record: { status: '0' } }, supplier)).toBe(true);
    expect(decide({ action: 'confirm', resource: 'orders', record: { status: '1' } }, supplier)).toBe(false);
    expect(decide({ action: 'ship', resource: 'orders', record: { status: '1' } }, supplier)).toBe(true);
  });
  it('claims need a claim warehouse', () => {
    expect(decide({ action: 'approve', resource: 'claims' }, supplier)).toBe(true);
    expect(decide({ action: 'approve', resource: 'claims' }, atPdc02(supplier))).toBe(false);
    expect(decide({ action: 'list', resource: 'claims' }, atPdc02(supplier))).toBe(false);
  });
  it('role admin may do everything', () => {
    expect(decide({ action: 'unlock', resource: 'accounts' }, root)).toBe(true);
    expect(decide({ action: 'whatever', resource: 'nothing' }, root)).toBe(true);
  });
  it('unknown resources and actions are refused', () => {
    expect(decide({ action: 'list', resource: 'nothing' }, supplier)).toBe(false);
    expect(decide({ action: 'frobnicate', resource: 'orders' }, supplier)).toBe(false);
    expect(decide({ action: 'list', resource: 'orders' }, null)).toBe(false);
  });
});

describe('canAccessSync and authProvider.canAccess', () => {
  it('answer from the stored identity, the same way', async () => {
    expect(canAccessSync({ action: 'list', resource: 'orders' })).toBe(false);
    setToken('t');
    setUser(supplier);
    expect(canAccessSync({ action: 'list', resource: 'orders' })).toBe(true);
    for (const p of [
      { action: 'list', resource: 'orders' },
      { action: 'create', resource: 'notices' },
      { action: 'confirm', resource: 'orders', record: { status: '1' } },
    ]) {
      await expect(authProvider.canAccess!(p)).resolves.toBe(canAccessSync(p));
    }
  });
});

describe('screens and menus by role', () => {
  const paths = (m: MenuEntry[]) => m.flatMap((e) => (e.kind === 'item' ? [e.path] : e.items.map((i) => i.path)));
  it('role sys sees notice management only; role user all other screens; the dashboard needs no role', () => {
    expect(screenAllowed(screen('noticeList'), supAdmin)).toBe(true);
    expect(screenAllowed(screen('orderShip'), supAdmin)).toBe(false);
    expect(screenAllowed(screen('noticeList'), supplier)).toBe(false);
    expect(screenAllowed(screen('orderShip'), supplier)).toBe(true);
    for (const u of [supplier, supAdmin, staff]) expect(screenAllowed(screen('dashboard'), u)).toBe(true);
    expect(screenAllowed(screen('dashboard'), null)).toBe(false);
    expect(screenAllowed(screen('notFound'), null)).toBe(true);
    expect(screenAllowed(screen('orderShip'), root)).toBe(true);
  });
  it("a screen over records the user may not read is not offered: the interface log is internal staff's", () => {
    expect(screenAllowed(screen('interfaceLog'), staff)).toBe(true);
    expect(screenAllowed(screen('interfaceMessageView'), staff)).toBe(true);
    for (const u of [supplier, supAdmin]) {
      expect(screenAllowed(screen('interfaceLog'), u)).toBe(false);
      expect(screenAllowed(screen('interfaceMessageView'), u)).toBe(false);
    }
    expect(paths(buildMenu(staff))).toContain('/interface/log');
    expect(paths(buildMenu(supplier))).not.toContain('/interface/log');
    expect(decide({ action: 'resend', resource: 'interface-messages' }, staff)).toBe(true);
    expect(decide({ action: 'resend', resource: 'interface-messages' }, supplier)).toBe(false);
  });
  it('claim screens are blocked outside a claim warehouse', () => {
    expect(screenAllowed(screen('claimList'), supplier)).toBe(true);
    expect(screenAllowed(screen('claimList'), atPdc02(supplier))).toBe(false);
    expect(screenAllowed(screen('claimAudit'), atPdc02(supplier))).toBe(false);
  });

  it('builds the sys menu: home and the notice list', () => {
    expect(paths(buildMenu(supAdmin))).toEqual(['/dashboard', '/notice/list']);
  });
  it('a screen whose data the profile may not read is not opened: account administration is for internal staff', () => {
    expect(screenAllowed(screen('accountList'), staff)).toBe(true);
    expect(screenAllowed(screen('accountList'), supplier)).toBe(false);
    expect(screenAllowed(screen('accountList'), supAdmin)).toBe(false);
    expect(screenAllowed(screen('accountList'), root)).toBe(true);
    expect(paths(buildMenu(staff))).toContain('/account/list');
    expect(paths(buildMenu(supplier))).not.toContain('/account/list');
    // a dealer (role user, no business data) sees the dashboard only
    const dealer: PortalUser = { ...supplier, accountType: '1', profile: 'dealer' };
    expect(paths(buildMenu(dealer))).toEqual(['/dashboard']);
  });
  it('internal staff administer accounts; the supplier administrator does not (notice management only)', () => {
    for (const a of ['list', 'edit', 'register', 'lock', 'unlock', 'resetPassword', 'endSessions', 'resetTotp', 'disable', 'enable']) {
      expect(decide({ action: a, resource: 'accounts' }, staff), a).toBe(true);
      expect(decide({ action: a, resource: 'accounts' }, supAdmin), a).toBe(false);
    }
    expect(decide({ action: 'create', resource: 'accounts' }, staff)).toBe(false);
    expect(decide({ action: 'unlock', resource: 'accounts', record: { status: '601' } }, staff)).toBe(true);
    expect(decide({ action: 'unlock', resource: 'accounts', record: { status: '0' } }, staff)).toBe(false);
  });
  it('builds the user menu: every visible user screen, grouped, hidden screens left out', () => {
    const m = buildMenu(supplier);
    const p = paths(m);
    expect(p[0]).toBe('/dashboard');
    expect(p).toContain('/orderConfirm/list');
    expect(p).toContain('/claim/list');
    expect(p).not.toContain('/notice/list');
    expect(p).not.toContain('/claim/audit');
    expect(p).not.toContain('/ChildPartsDiffAdjustApplyQuery/edit');
    // what the group holds is derived from the metadata, so a screen added there needs no edit here
    const declared = metadata.screens
      .filter((s) => s.menu?.group === 'order' && !s.hidden && screenAllowed(s, supplier))
      .sort((a, b) => a.menu!.order - b.menu!.order)
      .map((s) => s.path);
    const order = m.find((e) => e.kind === 'group' && e.key === 'order');
    expect(order && order.kind === 'group' && order.items.map((i) => i.path)).toEqual(declared);
    // the portal's own order screens are among them, in their declared order
    const portal = ['/orderConfirm/list', '/orderShip/list', '/orderSearch/list', '/DFSOrderShip/list'];
    expect(declared.filter((p) => portal.includes(p))).toEqual(portal);
    expect(paths(buildMenu(atPdc02(supplier)))).not.toContain('/claim/list');
  });
  it('a menu group holding one screen is drawn as that screen at the top level (as metadata/REFERENCE.md says)', () => {
    const one = metadata.screens.filter((s) => s.menu?.group !== 'order' || s.path === '/orderSearch/list');
    const m = buildMenu(supplier, one);
    expect(m.find((e) => e.kind === 'group' && e.key === 'order')).toBeUndefined();
    expect(m.some((e) => e.kind !== 'group' && e.path === '/orderSearch/list')).toBe(true);
  });
});
