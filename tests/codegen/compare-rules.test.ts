/**
 * Cross-field rules (metadata entity "compare"): codegen checks them and writes their messages in
 * both languages; codegen/runtime/compare-rules.ts judges a record the same way on both sides.
 * The quality-certificate fixture (tests/codegen/fixtures/supplier-certificate.json) declares
 * "valid to >= valid from" and "valid to not in the past" on create, with no hook.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { compareErrors } from '../../codegen/runtime/compare-rules.ts';
import type { CompiledEntity } from '../../codegen/runtime/model.ts';

const copy = useMetadataCopy('codegen-compare-');
const CERT = 'entities/supplier-certificate.json';
const addCertificate = () => copy.addFixture('supplier-certificate');

describe('compare rules in metadata', () => {
  it('compile with a message in both languages that names the other field', async () => {
    addCertificate();
    const r = await copy.run();
    expect(r.errors.map((e) => e.message)).toEqual([]);
    const cert = r.model!.entities.supplierCertificate;
    expect(cert.compare).toEqual([
      { field: 'validTo', op: '>=', other: 'validFrom', on: ['create', 'update'], messageKey: 'compare.supplierCertificate.validTo.0' },
      { field: 'validTo', op: '>=', other: '$today', on: ['create'], messageKey: 'compare.supplierCertificate.validTo.1' },
    ]);
    expect(r.catalogues!['en-US']['compare.supplierCertificate.validTo.0']).toBe('Must be on or after Valid from');
    expect(r.catalogues!['zh-CN']['compare.supplierCertificate.validTo.0']).toBe('不能早于生效日期');
    expect(r.catalogues!['en-US']['compare.supplierCertificate.validTo.1']).toBe('Must not be in the past');
    expect(r.catalogues!['zh-CN']['compare.supplierCertificate.validTo.1']).toBe('不能早于今天');
  });

  it('an unknown field gets a did-you-mean; kinds that do not compare and $today with a number are refused', async () => {
    addCertificate();
    copy.edit(CERT, (j) => (j.compare[0].other = 'validFROM'));
    await copy.expectError(CERT, '/compare/0/other', /compare: unknown field "validFROM" of entity "supplierCertificate" \(did you mean "validFrom"\?/);
    copy.edit(CERT, (j) => ((j.compare[0].other = 'validFrom'), (j.compare[0].field = 'issuingBody')));
    await copy.expectError(CERT, '/compare/0/field', /field "issuingBody" is a string; only date, datetime, integer and decimal fields compare/);
    copy.edit(
      CERT,
      (j) => (
        (j.compare[0].field = 'validTo'),
        (j.fields.score = { type: 'integer', minimum: 0, maximum: 9, labelKey: 'field.common.remarks' }),
        (j.compare[0].other = 'score')
      ),
    );
    await copy.expectError(CERT, '/compare/0/other', /"validTo" \(date\) and field "score" \(integer\) are not of one kind/);
    copy.edit(CERT, (j) => ((j.compare[0].field = 'score'), (j.compare[0].other = '$today')));
    await copy.expectError(CERT, '/compare/0/other', /"\$today" compares dates; field "score" is a integer/);
    copy.edit(CERT, (j) => ((j.compare[0].field = 'validTo'), (j.compare[0].messageKey = 'validation.validToBeforeFrom')));
    await copy.expectError(CERT, '/compare/0/messageKey', /label key "validation.validToBeforeFrom" is missing in zh-CN and en-US/);
  });
});

describe('compareErrors', () => {
  const entity = {
    fields: {
      validFrom: { type: 'date' },
      validTo: { type: 'date' },
      startAt: { type: 'datetime' },
      endAt: { type: 'datetime' },
      min: { type: 'decimal' },
      max: { type: 'decimal' },
    },
    compare: [
      { field: 'validTo', op: '>=', other: 'validFrom', on: ['create', 'update'], messageKey: 'k.range' },
      { field: 'validTo', op: '>=', other: '$today', on: ['create'], messageKey: 'k.past' },
      { field: 'endAt', op: '>', other: 'startAt', on: ['create', 'update'], messageKey: 'k.after' },
      { field: 'max', op: '>=', other: 'min', on: ['update'], messageKey: 'k.max' },
    ],
  } as unknown as CompiledEntity;
  const TODAY = '2026-05-10';

  it('refuses what breaks a rule, on the writes it holds on, and passes the rest', () => {
    expect(compareErrors(entity, { validFrom: '2026-06-01', validTo: '2026-05-31' }, 'update', TODAY)).toEqual({ validTo: { key: 'k.range' } });
    expect(compareErrors(entity, { validFrom: '2026-06-01', validTo: '2026-06-01' }, 'update', TODAY)).toBeNull();
    // the first failing rule of a field wins
    expect(compareErrors(entity, { validFrom: '2026-06-01', validTo: '2026-05-01' }, 'create', TODAY)).toEqual({ validTo: { key: 'k.range' } });
    expect(compareErrors(entity, { validFrom: '2026-01-01', validTo: '2026-05-09' }, 'create', TODAY)).toEqual({ validTo: { key: 'k.past' } });
    expect(compareErrors(entity, { validFrom: '2026-01-01', validTo: '2026-05-09' }, 'update', TODAY)).toBeNull();
    expect(compareErrors(entity, { validFrom: '2026-01-01', validTo: '2026-05-10' }, 'create', TODAY)).toBeNull();
    expect(compareErrors(entity, { min: 5, max: 4.99 }, 'update', TODAY)).toEqual({ max: { key: 'k.max' } });
    expect(compareErrors(entity, { min: 5, max: 4.99 }, 'create', TODAY)).toBeNull();
  });

  it('compares datetimes as instants, whatever their offsets, and leaves empty or malformed values to the schema', () => {
    // 10:00+08:00 is 02:00Z: before 03:00Z, although its text sorts after it
    expect(compareErrors(entity, { startAt: '2026-05-10T03:00:00Z', endAt: '2026-05-10T10:00:00+08:00' }, 'update', TODAY)).toEqual({
      endAt: { key: 'k.after' },
    });
    expect(compareErrors(entity, { startAt: '2026-05-10T01:00:00Z', endAt: '2026-05-10T10:00:00+08:00' }, 'update', TODAY)).toBeNull();
    expect(compareErrors(entity, { validFrom: null, validTo: '2020-01-01' }, 'update', TODAY)).toBeNull();
    expect(compareErrors(entity, { validFrom: '2026-06-01', validTo: '' }, 'update', TODAY)).toBeNull();
    expect(compareErrors(entity, { validFrom: '2026-06-01', validTo: 'soon' }, 'update', TODAY)).toBeNull();
    expect(compareErrors(entity, { min: '5', max: 4 }, 'update', TODAY)).toBeNull();
  });
});

describe('a label rightly the same in both languages (one rule: codegen/runtime/chinese-text.ts)', () => {
  it('codegen refuses a code label with no Chinese unless the value is marked languageNeutral; the i18n test asks the same rule', async () => {
    addCertificate();
    copy.edit(CERT, (j) => delete j.codeTables.certificateType.values[0].languageNeutral);
    await copy.expectError(CERT, '/codeTables/certificateType/values/0/label/zh-CN', /has no Chinese: translate it, or mark the value "languageNeutral": true/);
    copy.edit(CERT, (j) => (j.codeTables.certificateType.values[0].languageNeutral = true));
    expect(await copy.errorsOf()).toEqual([]);
    copy.edit(CERT, (j) => (j.codeTables.certificateStatus.values[0].label['zh-CN'] = 'Pending'));
    await copy.expectError(CERT, '/codeTables/certificateStatus/values/0/label/zh-CN', /"Pending" has no Chinese/);
  });
  it('a field label copied untranslated into zh-CN is refused at its key', async () => {
    addCertificate();
    const zh = join(copy.dir, 'metadata/i18n/zh-CN/supplier-certificate.json');
    const tr = JSON.parse(readFileSync(zh, 'utf8')) as { field: { supplierCertificate: Record<string, string> } };
    tr.field.supplierCertificate.issuingBody = 'Issuing body';
    writeFileSync(zh, JSON.stringify(tr));
    const errs = await copy.errorsOf();
    expect(
      errs.find((m) => m.startsWith('metadata/i18n/zh-CN#/field/supplierCertificate/issuingBody:')),
      errs.join('\n'),
    ).toMatch(/"Issuing body" has no Chinese/);
  });
});
