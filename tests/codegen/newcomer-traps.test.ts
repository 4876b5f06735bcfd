/**
 * What tripped the newcomer who added quality certificates (issue 26), each answered by codegen
 * with a message that says what to do: a seed hint out of the demo calendar names the entity, the
 * field and the limits (the reference says them too); a button the entity has no action for says
 * so with a did-you-mean; a mistyped translation key names the close key.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { ROOT } from '../support/project-copy.ts';
import { SEED_DAYS } from '../../codegen/runtime/model.ts';

const copy = useMetadataCopy('codegen-traps-');
const CERT = 'entities/supplier-certificate.json';
const addCertificate = () => copy.addFixture('supplier-certificate');

describe('demo data hints', () => {
  it('a date range outside the demo calendar is refused with the entity, the field and the limits', async () => {
    addCertificate();
    copy.edit(CERT, (j) => (j.seed = { ranges: { validTo: { min: 30, max: 735 } } }));
    await copy.expectError(CERT, '/seed/ranges/validTo', /day offsets 30 to 735 leave the demo calendar: field "validTo" can draw from -800 to 400 days/);
    copy.edit(CERT, (j) => (j.seed = { ranges: { validTo: { min: 30, max: 400 } } }));
    expect(await copy.errorsOf()).toEqual([]);
  });
  it('the reference states the same limits as the generator', () => {
    const ref = readFileSync(join(ROOT, 'metadata/REFERENCE.md'), 'utf8');
    expect(ref).toContain(`within the demo calendar of ${SEED_DAYS.min} to ${SEED_DAYS.max} days`);
  });
});

describe('screens and labels', () => {
  it('a button naming an action the entity lacks says so, with the close one', async () => {
    addCertificate();
    copy.edit(CERT, (j) => (j.screens[0].buttons[4] = 'aprove'));
    await copy.expectError(
      CERT,
      '/screens/0/buttons/4',
      /unknown button "aprove" \(entity "supplierCertificate" has no action with that button, and metadata\/access.json declares no such button\) \(did you mean "approve"\?/,
    );
  });
  it('a mistyped translation key names the close key both languages have', async () => {
    addCertificate();
    copy.edit(CERT, (j) => (j.screens[0].titleKey = 'route.supplierCertificateLst'));
    await copy.expectError(
      CERT,
      '/screens/0/titleKey',
      /label key "route.supplierCertificateLst" is missing in zh-CN and en-US \(did you mean "route.supplierCertificateList"\?\)/,
    );
  });
});
