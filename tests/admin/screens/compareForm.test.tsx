/**
 * A compare rule of metadata in the record form (jsdom): the quality-certificate fixture compiled
 * from a copy of the metadata and installed as the page's metadata; a record whose "valid to" lies
 * before its "valid from" is refused on save, before any call, with the generated message on the
 * field, in English and in Chinese.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminContext, memoryStore, testDataProvider } from 'react-admin';
import { runCodegen } from '../../../codegen/index.ts';
import { allSchemas } from '../../../codegen/runtime/field-schema.ts';
import { installMetadata } from '../../../admin/src/generated/index.ts';
import { createI18nProvider, preloadMessages, swapMessages } from '../../../admin/src/providers/i18nProvider.ts';
import { RecordForm } from '../../../admin/src/screens/form/RecordForm.tsx';
import { ROOT, addFixtureEntity } from '../../support/project-copy.ts';
import type { CompiledEntity, Locale } from '../../../codegen/runtime/model.ts';

let dir = '';
let cert: CompiledEntity;
let bundles: Record<Locale, Record<string, string>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'compare-form-'));
  cpSync(join(ROOT, 'metadata'), join(dir, 'metadata'), { recursive: true });
  addFixtureEntity({ writeMetadata: (file, content) => writeFileSync(join(dir, 'metadata', file), JSON.stringify(content)) }, 'supplier-certificate');
  const r = await runCodegen(join(dir, 'metadata'), dir);
  expect(r.errors).toEqual([]);
  installMetadata(r.model!, allSchemas(r.model!));
  cert = r.model!.entities.supplierCertificate;
  bundles = r.catalogues!;
  for (const l of ['en-US', 'zh-CN'] as const) await preloadMessages(l);
}, 60_000);
afterAll(() => {
  cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const record = {
  id: 7,
  version: 1,
  supplierCode: 'S001',
  certificateType: '9001',
  certificateNo: 'QC-1',
  issuingBody: 'TUV',
  validFrom: '2030-06-01',
  validTo: '2030-05-01',
  status: '0',
};

async function saveIn(locale: Locale): Promise<ReturnType<typeof vi.fn>> {
  const i18n = createI18nProvider(locale);
  await swapMessages(bundles);
  const update = vi.fn(async () => ({ data: record }));
  render(
    <AdminContext dataProvider={testDataProvider({ update: update as never })} i18nProvider={i18n} store={memoryStore()}>
      <RecordForm entity={cert} fieldNames={['certificateNo', 'validFrom', 'validTo']} record={record} canSave onSaved={() => {}} />
    </AdminContext>,
  );
  fireEvent.click(await screen.findByTestId('btn-save'));
  return update;
}

describe('compare rule in the form', () => {
  it('en-US: "Must be on or after Valid from" on valid to, and nothing is sent', async () => {
    const update = await saveIn('en-US');
    expect(await screen.findByText('Must be on or after Valid from')).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    cleanup();
  });
  it('zh-CN: 不能早于生效日期', async () => {
    const update = await saveIn('zh-CN');
    expect(await screen.findByText('不能早于生效日期')).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    cleanup();
  });
});
