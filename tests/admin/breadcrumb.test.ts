/**
 * Issue 20 point 6: the breadcrumb names only menu groups the user's menu has. A group with one
 * screen the user may open is shown in the menu as that screen alone, so its page has no group
 * crumb; a real group keeps its crumb. Every screen with a menu group, for every demo profile,
 * derived from the compiled metadata.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../admin/src/generated/index.ts';
import { crumbsFor } from '../../admin/src/layout/Breadcrumb.tsx';
import { buildMenu, groupOf } from '../../admin/src/layout/menuModel.ts';
import { screenAllowed } from '../../admin/src/providers/permissions.ts';
import type { PortalUser } from '../../admin/src/providers/storage.ts';
import { supplierUser } from './helpers.ts';

const supplier = { ...supplierUser, departmentId: 'S001' } as unknown as PortalUser;
const staff = { ...supplier, userId: 'staff01', accountType: '0', profile: 'internal' } as PortalUser;
const supAdmin = { ...supplier, userId: 'supadmin', accountType: '4', profile: 'supplierAdmin', roleId: 'sys', roles: ['sys'], admin: true } as PortalUser;
const key = (k: string) => k;

describe('breadcrumb groups exist in the menu', () => {
  for (const user of [supplier, staff, supAdmin]) {
    it(`for ${user.profile}`, () => {
      const menu = buildMenu(user);
      let flattened = 0;
      for (const s of metadata.screens.filter((x) => x.menu?.group && screenAllowed(x, user))) {
        const groupCrumbs = crumbsFor(s.path, user, key).filter((c) => c.key.startsWith('group-'));
        const inMenu = groupOf(menu, s.path);
        expect(
          groupCrumbs.map((c) => c.label),
          s.name,
        ).toEqual(inMenu ? [inMenu.titleKey] : []);
        if (!inMenu) flattened++;
      }
      // the demo menus have single-entry groups (e.g. hazardous chemicals for a supplier): the rule is exercised
      if (user === supplier) expect(flattened).toBeGreaterThan(0);
    });
  }
});
