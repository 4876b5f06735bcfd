/**
 * The checks behind the generic demo data (codegen/seed-hints.ts): a pattern rule lists examples
 * that pass it, and an entity's "seed" hint names its own fields with valid values and ranges.
 * Each error names the file and the JSON pointer, like every other metadata check.
 */
import { describe, expect, it } from 'vitest';
import { useMetadataCopy } from './metadata-copy.ts';

const { edit, errorsOf, expectError, run } = useMetadataCopy('seed-hints-');

describe('rule examples', () => {
  it('a rule with a pattern needs examples', async () => {
    edit('rules/common.json', (j) => delete j.rules.mobile.examples);
    await expectError('rules/common.json', '/rules/mobile', /has a pattern but no "examples"/);
  });
  it('every example passes its rule', async () => {
    edit('rules/common.json', (j) => j.rules.postcode.examples.push('20000'));
    await expectError('rules/common.json', '/rules/postcode/examples/3', /example "20000" does not pass rule "postcode"/);
  });
});

describe('seed hints', () => {
  it('compile into the model, code keys turned into codes', async () => {
    edit('entities/notice.json', (j) => (j.seed = { rows: 5, values: { status: ['repealed'] }, ranges: { publishedAt: { min: -30, max: 0 } } }));
    const r = await run();
    expect(r.errors).toEqual([]);
    expect(r.model!.entities.notice.seed).toEqual({
      rows: 5,
      values: { status: [r.model!.codeTables.noticeStatus.values.find((v) => v.key === 'repealed')!.code] },
      ranges: { publishedAt: { min: -30, max: 0 } },
    });
  });
  it('an unknown field', async () => {
    edit('entities/notice.json', (j) => (j.seed = { values: { titel: ['x'] } }));
    await expectError('entities/notice.json', '/seed/values/titel', /unknown field "titel"/);
  });
  it('a field the engine fills', async () => {
    edit('entities/notice.json', (j) => (j.seed = { values: { createdBy: ['x'] } }));
    await expectError('entities/notice.json', '/seed/values/createdBy', /filled by the engine/);
  });
  it("a value the field's validation refuses", async () => {
    edit('entities/account.json', (j) => (j.seed = { values: { mobile: ['12345'] } }));
    await expectError('entities/account.json', '/seed/values/mobile/0', /does not pass the validation of string field "mobile"/);
  });
  it('an unknown code key', async () => {
    edit('entities/notice.json', (j) => (j.seed = { values: { status: ['published'] } }));
    await expectError('entities/notice.json', '/seed/values/status/0', /unknown code key "published"/);
  });
  it("a range outside the field's own, and a range on a string", async () => {
    edit('entities/order.json', (j) => (j.seed = { ranges: { orderQty: { min: -5, max: 10 }, orderNo: { min: 1, max: 2 } } }));
    const errs = await errorsOf();
    expect(
      errs.some((m) => m.startsWith('metadata/entities/order.json#/seed/ranges/orderQty:') && /leaves the field's own range/.test(m)),
      errs.join('\n'),
    ).toBe(true);
    expect(
      errs.some((m) => m.startsWith('metadata/entities/order.json#/seed/ranges/orderNo:') && /not to string/.test(m)),
      errs.join('\n'),
    ).toBe(true);
  });
  it('a code table declared in an entity file cannot take a name that is already used', async () => {
    edit(
      'entities/notice.json',
      (j) =>
        (j.codeTables = {
          noticeStatus: { label: { 'zh-CN': '状态', 'en-US': 'Status' }, values: [{ code: '1', key: 'on', label: { 'zh-CN': '开', 'en-US': 'On' } }] },
        }),
    );
    await expectError('entities/notice.json', '/codeTables/noticeStatus', /is already defined in metadata\/codes\/notice.json/);
  });
});
