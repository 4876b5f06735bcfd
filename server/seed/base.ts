/**
 * The demo accounts, warehouses and suppliers of docs/design.md section 5 (a contract: tests and the README rely
 * on them) and a few notices. Passwords are hashed with the given cost (production by default).
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { hashPassword, type ScryptParams } from '../engine/passwords.ts';
import type { RowWriter } from './writer.ts';

/** The entities this module fills. */
export const BASE_ENTITIES = ['warehouse', 'supplier', 'account', 'notice'] as const;

export const DEMO_PASSWORD = 'demo2026A';
export const INITIAL_PASSWORD = 'init2026A';

export const DEMO_WAREHOUSES = [
  { code: 'PDC01', nameZh: '上海配件中心', nameEn: 'Shanghai PDC', isClaimWarehouse: true },
  { code: 'PDC02', nameZh: '广州配件中心', nameEn: 'Guangzhou PDC', isClaimWarehouse: false },
] as const;

export const DEMO_SUPPLIERS = [
  { code: 'S001', nameZh: '华东汽车零部件有限公司' },
  { code: 'S002', nameZh: '南方精密配件有限公司' },
] as const;

export const DEMO_ACCOUNTS = [
  {
    userId: 'sup01',
    name: '张伟',
    accountType: 'supplier',
    departmentId: 'S001',
    departmentName: DEMO_SUPPLIERS[0].nameZh,
    status: 'normal',
    password: DEMO_PASSWORD,
  },
  {
    userId: 'sup02',
    name: '李娜',
    accountType: 'supplier',
    departmentId: 'S002',
    departmentName: DEMO_SUPPLIERS[1].nameZh,
    status: 'normal',
    password: DEMO_PASSWORD,
  },
  {
    userId: 'supadmin',
    name: '王芳',
    accountType: 'supplierAdmin',
    departmentId: 'ADMIN',
    departmentName: '供应商管理部',
    status: 'normal',
    password: DEMO_PASSWORD,
  },
  { userId: 'staff01', name: '刘强', accountType: 'internal', departmentId: 'PD01', departmentName: '采购部', status: 'normal', password: DEMO_PASSWORD },
  {
    userId: 'newuser',
    name: '陈静',
    accountType: 'supplier',
    departmentId: 'S001',
    departmentName: DEMO_SUPPLIERS[0].nameZh,
    status: 'mustChangePassword',
    password: INITIAL_PASSWORD,
  },
  {
    userId: 'locked01',
    name: '赵磊',
    accountType: 'supplier',
    departmentId: 'S002',
    departmentName: DEMO_SUPPLIERS[1].nameZh,
    status: 'locked',
    password: DEMO_PASSWORD,
  },
  // a disabled account: account administration's "enable" has a row to act on
  {
    userId: 'former01',
    name: '孙丽',
    accountType: 'supplier',
    departmentId: 'S002',
    departmentName: DEMO_SUPPLIERS[1].nameZh,
    status: 'disabled',
    password: DEMO_PASSWORD,
  },
] as const;

const code = (meta: CompiledMetadata, table: string, key: string): string => {
  const v = meta.codeTables[table].values.find((x) => x.key === key);
  if (!v) throw new Error(`seed: no key ${key} in ${table}`);
  return v.code;
};

export async function seedBase(w: RowWriter, meta: CompiledMetadata, hashParams: ScryptParams): Promise<void> {
  const hashes = new Map<string, string>();
  for (const pw of new Set(DEMO_ACCOUNTS.map((a) => a.password))) hashes.set(pw, await hashPassword(pw, hashParams));
  for (const wh of DEMO_WAREHOUSES) w.insert('warehouse', { ...wh });
  // the supplier master every typed supplier code must name (metadata lookups)
  for (const s of DEMO_SUPPLIERS) w.insert('supplier', { supplierCode: s.code, supplierName: s.nameZh });
  for (const a of DEMO_ACCOUNTS) {
    w.insert('account', {
      userId: a.userId,
      name: a.name,
      accountType: code(meta, 'accountType', a.accountType),
      departmentId: a.departmentId,
      departmentName: a.departmentName,
      status: code(meta, 'accountStatus', a.status),
      failedLogins: a.status === 'locked' ? meta.app.lockout.maxFailures : 0,
      passwordHash: hashes.get(a.password),
      // the initial password counts as never changed; the others were changed today
      passwordChangedAt: a.status === 'mustChangePassword' ? null : w.now,
      email: `${a.userId}@example.com`,
      mobile: '13800138000',
      telephone: '021-12345678',
    });
  }
  const active = code(meta, 'noticeStatus', 'active');
  const notices = [
    {
      title: '关于2026年第四季度供货计划的通知 / Q4 2026 supply plan',
      content: '请各供应商于12月5日前确认第四季度供货计划。\nSuppliers: please confirm the Q4 supply plan by 5 December.',
    },
    {
      title: '危险化学品收货单据上传要求 / Hazardous chemicals receipts',
      content: '危险化学品到货后须在三个工作日内上传签收单。\nUpload the signed receipt within three working days of delivery.',
    },
    {
      title: '春节期间物流安排 / Logistics over Spring Festival',
      content: '春节期间各配件中心收货时间调整如下……\nReceiving hours of every PDC change over the Spring Festival ...',
    },
  ];
  for (const n of notices) w.insert('notice', { ...n, status: active, deleted: false, publishedAt: w.now, createdBy: 'supadmin', updatedBy: 'supadmin' });
  await w.flush();
}
