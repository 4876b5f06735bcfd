/**
 * Every cross-reference check of codegen: a copy of the real metadata is broken in one place and
 * the error must name the file and the JSON pointer. The last tests check that the real metadata
 * is clean and that generation is deterministic.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCodegen } from '../../codegen/index.ts';
import { useMetadataCopy } from './metadata-copy.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const m = useMetadataCopy('codegen-');
const { edit, errorsOf, expectError } = m;

describe('codegen cross-reference checks', () => {
  it('the real metadata has no problems', async () => {
    expect(await errorsOf()).toEqual([]);
  });

  it('unknown field in a column', async () => {
    edit('screens/notice-list.json', (j) => (j.columns[0] = 'titel'));
    await expectError('screens/notice-list.json', '/columns/0', /unknown field "titel" of entity "notice"/);
  });

  it('unknown field in a filter', async () => {
    edit('screens/notice-list.json', (j) => (j.filters[0].field = 'nope'));
    await expectError('screens/notice-list.json', '/filters/0', /unknown field "nope"/);
  });

  it('filter operator the field does not declare', async () => {
    edit('screens/notice-list.json', (j) => (j.filters[0].op = 'range'));
    await expectError('screens/notice-list.json', '/filters/0', /does not declare the filter "range"/);
  });

  it("a screen's title for a profile: the profile must exist and its key be in both languages", async () => {
    edit('screens/child-parts-diff-adjust-edit.json', (j) => (j.titleKeyFor = { interal: 'route.childPartsDiffAdjustAudit' }));
    await expectError('screens/child-parts-diff-adjust-edit.json', '/titleKeyFor/interal', /unknown profile "interal" \(did you mean "internal"\?/);
    edit('screens/child-parts-diff-adjust-edit.json', (j) => (j.titleKeyFor = { internal: 'route.childPartsDiffAdjustAuditt' }));
    await expectError(
      'screens/child-parts-diff-adjust-edit.json',
      '/titleKeyFor/internal',
      /label key "route.childPartsDiffAdjustAuditt" is missing in zh-CN and en-US/,
    );
    edit('screens/child-parts-diff-adjust-edit.json', (j) => (j.titleKeyFor = { internal: j.titleKey }));
    await expectError('screens/child-parts-diff-adjust-edit.json', '/titleKeyFor/internal', /its own titleKey again/);
  });

  it("a lookup's fills: a field of this record taking a target field of the same type", async () => {
    const at = '/fields/partsCode/lookup/fills';
    edit('entities/stock-adjustment.json', (j) => (j.fields.partsCode.lookup.fills = { partsDescriptin: 'partsDescription' }));
    await expectError('entities/stock-adjustment.json', `${at}/partsDescriptin`, /unknown field "partsDescriptin".*did you mean "partsDescription"/);
    edit('entities/stock-adjustment.json', (j) => (j.fields.partsCode.lookup.fills = { partsDescription: 'description' }));
    await expectError('entities/stock-adjustment.json', `${at}/partsDescription`, /unknown field "description" of entity "childPartStock"/);
    edit('entities/stock-adjustment.json', (j) => (j.fields.partsCode.lookup.fills = { partsDescription: 'stockQty' }));
    await expectError(
      'entities/stock-adjustment.json',
      `${at}/partsDescription`,
      /"partsDescription" \(string\) cannot take "stockQty" of "childPartStock" \(integer\)/,
    );
  });

  it('unknown field in a grant condition', async () => {
    edit('entities/notice.json', (j) => (j.access.read.supplier.where = { stat: ['active'] }));
    await expectError('entities/notice.json', '/access/read/supplier/where/stat', /unknown field "stat"/);
  });

  it('a lookup names an unknown entity, a field without the contains filter, or an unknown scoping field', async () => {
    edit('entities/stock-adjustment.json', (j) => (j.fields.partsCode.lookup.entity = 'childPartStok'));
    await expectError('entities/stock-adjustment.json', '/fields/partsCode/lookup/entity', /unknown entity "childPartStok"/);
    edit('entities/stock-adjustment.json', (j) => {
      j.fields.partsCode.lookup.entity = 'childPartStock';
      j.fields.partsCode.lookup.field = 'supplierCode';
    });
    await expectError('entities/stock-adjustment.json', '/fields/partsCode/lookup/field', /needs the "contains" filter/);
    edit('entities/stock-adjustment.json', (j) => {
      j.fields.partsCode.lookup.field = 'partsCode';
      j.fields.partsCode.lookup.scopedBy = { supplierCod: 'supplierCode' };
    });
    await expectError('entities/stock-adjustment.json', '/fields/partsCode/lookup/scopedBy/supplierCod', /which this entity does not have/);
  });

  it("a lookup's when names a code field of the entity and keys of its code table", async () => {
    edit('entities/account.json', (j) => (j.fields.departmentId.lookup.when = { acountType: ['supplier'] }));
    await expectError('entities/account.json', '/fields/departmentId/lookup/when/acountType', /unknown field "acountType"/);
    edit('entities/account.json', (j) => (j.fields.departmentId.lookup.when = { accountType: ['suplier'] }));
    await expectError('entities/account.json', '/fields/departmentId/lookup/when/accountType/0', /suplier/);
  });

  it('unknown code table', async () => {
    edit('entities/notice.json', (j) => (j.fields.status.codeTable = 'noticeStatuz'));
    await expectError('entities/notice.json', '/fields/status/codeTable', /unknown code table "noticeStatuz"/);
  });

  it('unknown code value', async () => {
    edit('entities/notice.json', (j) => (j.fields.status.default = 'published'));
    await expectError('entities/notice.json', '/fields/status/default', /unknown code key "published" of table "noticeStatus"/);
  });

  it('action "from" not in the status table', async () => {
    edit('entities/notice.json', (j) => (j.actions.activate.from = ['draft']));
    await expectError('entities/notice.json', '/actions/activate/from/0', /unknown code key "draft"/);
  });

  it('action "to" not in the status table', async () => {
    edit('entities/notice.json', (j) => (j.actions.repeal.to = 'gone'));
    await expectError('entities/notice.json', '/actions/repeal/to', /unknown code key "gone"/);
  });

  it('a label key missing in one language', async () => {
    edit('i18n/zh-CN/core.json', (j) => delete j.route.noticeList);
    await expectError('i18n/en-US/core.json', '/route/noticeList', /has no zh-CN translation/);
    await expectError('screens/notice-list.json', '/titleKey', /label key "route.noticeList" is missing in zh-CN/);
  });

  it('a field without any label', async () => {
    edit('entities/notice.json', (j) => (j.fields.summary = { type: 'string', maxLength: 20 }));
    await expectError('entities/notice.json', '/fields/summary', /no label; expected one of the keys "field.notice.summary", "field.common.summary"/);
  });

  it('an identifier that is not a string field', async () => {
    edit('entities/notice.json', (j) => (j.fields.status.identifier = true));
    await expectError('entities/notice.json', '/fields/status/identifier', /identifier is only for string fields/);
  });

  it('identifier fields and autoNumber fields are identifiers in the compiled model', async () => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'admin/src/generated/metadata.json'), 'utf8')) as {
      entities: Record<string, { fields: Record<string, { identifier?: boolean }> }>;
    };
    expect(meta.entities.order.fields.orderNo.identifier).toBe(true);
    expect(meta.entities.stockAdjustment.fields.billNo.identifier).toBe(true); // autoNumber
    expect(meta.entities.order.fields.orderType.identifier).toBeUndefined();
  });

  it('an action button the rows of a list screen can never allow', async () => {
    // the order confirm list shows released lines only; shipping needs a confirmed one
    edit('screens/order-confirm.json', (j) => j.buttons.push('ship'));
    await expectError('screens/order-confirm.json', '/buttons/3', /action "ship" needs status in \[confirmed\], but this screen lists only \[released\]/);
  });

  it('unknown role', async () => {
    edit('screens/notice-list.json', (j) => (j.roles = ['sysadmin']));
    await expectError('screens/notice-list.json', '/roles/0', /meta-schema/);
  });

  it('unknown rule', async () => {
    edit('entities/account.json', (j) => (j.fields.email.rules = ['emailAddress']));
    await expectError('entities/account.json', '/fields/email/rules/0', /unknown rule "emailAddress"/);
  });

  it('rule attached to a field type it does not apply to', async () => {
    edit('entities/account.json', (j) => (j.fields.email.rules = ['printQty']));
    await expectError('entities/account.json', '/fields/email/rules/0', /applies to integer fields, not to string/);
  });

  it('duplicate route path', async () => {
    edit('screens/notice-edit.json', (j) => (j.path = '/notice/list'));
    // files are read in name order: the second of the two is the one reported
    await expectError('screens/notice-list.json', '/path', /duplicate route path "\/notice\/list" \(also in metadata\/screens\/notice-edit.json\)/);
  });

  it('unknown button on a screen', async () => {
    edit('screens/notice-list.json', (j) => j.buttons.push('launch'));
    await expectError('screens/notice-list.json', `/buttons/${6}`, /unknown button "launch"/);
  });

  it('unknown resource on a screen', async () => {
    edit('screens/notice-list.json', (j) => (j.resource = 'notes'));
    await expectError('screens/notice-list.json', '/resource', /unknown resource "notes"/);
  });

  it('a property the meta-schema does not know (typo)', async () => {
    edit('entities/notice.json', (j) => (j.fields.title.requird = true));
    await expectError('entities/notice.json', '/fields/title', /unknown property "requird"/);
  });

  it('an action input that takes the definition of a field the entity does not have, or of a private one', async () => {
    edit('entities/account.json', (j) => (j.actions.register.input.nickname = { sameAsField: true }));
    await expectError('entities/account.json', '/actions/register/input/nickname/sameAsField', /field "nickname", which the entity does not have/);
    edit('entities/account.json', (j) => {
      delete j.actions.register.input.nickname;
      j.actions.register.input.passwordHash = { sameAsField: true };
    });
    await expectError('entities/account.json', '/actions/register/input/passwordHash/sameAsField', /is private/);
  });

  it('invalid JSON names the file, the line and the column (tests/codegen/mistakes.test.ts has more)', async () => {
    writeFileSync(join(m.dir, 'metadata/screens/notice-list.json'), '{ "name": ');
    const errs = await errorsOf();
    expect(errs.some((m) => m.startsWith('metadata/screens/notice-list.json:1:11: not valid JSON'))).toBe(true);
  });
});

describe('action inputs that take the definition of their field (sameAsField)', () => {
  it('carry its type, length, code table, rules and label; required may differ; its storage settings stay behind', async () => {
    const { metadata } = await import('../../server/generated/index.ts');
    const account = metadata.entities.account;
    const input = account.actions.register.input;
    expect(input.email).toMatchObject({ type: 'string', maxLength: 100, rules: ['email'], labelKey: 'field.account.email', required: true });
    expect(account.fields.email.required).toBe(false);
    expect(input.userId).toMatchObject({
      type: 'string',
      maxLength: 30,
      rules: ['userId'],
      required: true,
      unique: false,
      createOnly: false,
      filter: [],
      sort: false,
    });
    expect(input.accountType).toMatchObject({ type: 'code', codeTable: 'accountType', required: true });
    expect(input.language).toMatchObject({ type: 'code', codeTable: 'language', default: 'zh-CN', required: false });
  });
});

describe('codegen output', () => {
  it('is deterministic: two runs give byte-identical files', async () => {
    const a = await m.run();
    const b = await m.run();
    expect(a.files).not.toBeNull();
    expect([...a.files!.keys()].sort()).toEqual([...b.files!.keys()].sort());
    for (const [k, v] of a.files!) expect(b.files!.get(k), k).toBe(v);
  });

  it('matches the generated files in the working tree (npm run codegen was run, nobody edited them)', async () => {
    const r = await runCodegen(join(ROOT, 'metadata'), ROOT);
    for (const [rel, content] of r.files!) expect(readFileSync(join(ROOT, rel), 'utf8'), rel).toBe(content);
  });

  it('every generated file carries the banner', async () => {
    const r = await m.run();
    for (const [rel, content] of r.files!) expect(content.slice(0, 200), rel).toMatch(/GENERATED by `npm run codegen`/);
  });
});

describe('adding a plain entity and its screen', () => {
  it('is one metadata file plus its translations (the example of docs/adding-a-screen.md)', async () => {
    const file = JSON.parse(readFileSync(join(ROOT, 'tests/codegen/fixtures/supplier-contact.json'), 'utf8'));
    writeFileSync(join(m.dir, 'metadata/entities/supplier-contact.json'), JSON.stringify(file));
    const tr = JSON.parse(readFileSync(join(ROOT, 'tests/codegen/fixtures/supplier-contact.i18n.json'), 'utf8'));
    writeFileSync(join(m.dir, 'metadata/i18n/zh-CN/supplier-contact.json'), JSON.stringify(tr['zh-CN']));
    writeFileSync(join(m.dir, 'metadata/i18n/en-US/supplier-contact.json'), JSON.stringify(tr['en-US']));
    const r = await m.run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    const e = r.model!.entities.supplierContact;
    expect(e.resource).toBe('supplier-contacts');
    expect(r.model!.screens.find((s) => s.path === '/supplierContact/list')).toMatchObject({
      resource: 'supplier-contacts',
      roles: ['user'],
      buttons: ['search', 'add', 'edit', 'delete', 'deactivate'],
    });
    // its code table, declared in the entity file, is a code table like the others
    expect(r.model!.codeTables.contactStatus.values.map((v) => v.key)).toEqual(['active', 'inactive']);
    expect(e.actions.deactivate).toMatchObject({ from: ['1'], to: ['0'] });
    expect(r.files!.get('server/generated/schema.sql')).toContain('CREATE TABLE IF NOT EXISTS "supplier_contact"');
    expect(r.files!.get('server/generated/types.ts')).toContain('export interface SupplierContact {');
    expect(JSON.parse(r.files!.get('admin/src/generated/messages.en-US.json')!)['route.supplierContactList']).toBe('Supplier contacts');
  });
});
