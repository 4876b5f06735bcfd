/**
 * One logged-in caller of every profile (and a supplier at a warehouse that is not a claim
 * warehouse): the demo accounts plus a dealer and a logistics account, which are not demo
 * accounts. Used by the access tests that must try every profile.
 */
import type { Profile } from '../../codegen/runtime/model.ts';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { hashPassword, TEST_PARAMS } from '../../server/engine/passwords.ts';
import { code, login, type TestApp } from './helpers.ts';

export interface Caller {
  name: string;
  profile: Profile;
  token: string;
  supplier: string | null;
  warehouse: string;
  claimWarehouse: boolean;
}

export async function callersOfEveryProfile(t: TestApp): Promise<Caller[]> {
  const hash = await hashPassword('demo2026A', TEST_PARAMS);
  await RowWriter.write(t.app.db, metadata, (w) => {
    for (const [userId, type] of [
      ['dealer01', 'dealer'],
      ['logi01', 'logistics'],
    ] as const) {
      w.insert('account', {
        userId,
        name: userId,
        accountType: code('accountType', type),
        departmentId: 'D001',
        status: '0',
        passwordHash: hash,
        passwordChangedAt: new Date().toISOString(),
      });
    }
  });
  const specs: [string, Profile, string | null, string][] = [
    ['sup01', 'supplier', 'S001', 'PDC01'],
    ['sup02', 'supplier', 'S002', 'PDC01'],
    ['sup01', 'supplier', 'S001', 'PDC02'],
    ['supadmin', 'supplierAdmin', null, 'PDC01'],
    ['staff01', 'internal', null, 'PDC01'],
    ['dealer01', 'dealer', null, 'PDC01'],
    ['logi01', 'logistics', null, 'PDC01'],
  ];
  const callers: Caller[] = [];
  for (const [name, profile, supplier, warehouse] of specs) {
    callers.push({
      name: `${name}@${warehouse}`,
      profile,
      token: await login(t.app, name, warehouse),
      supplier,
      warehouse,
      claimWarehouse: warehouse === 'PDC01',
    });
  }
  return callers;
}
