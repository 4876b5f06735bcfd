/**
 * A generated screen page rendered in jsdom as the admin renders it (AdminContext, a fresh store)
 * over a scripted dataProvider: the test says how lists answer; the portal's own methods (runAction,
 * upload, download, exportList) are mocks unless the test gives its own. Shared by the screen tests
 * so each says only its rows and what it expects.
 */
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { AdminContext, memoryStore, testDataProvider, type GetListParams, type GetListResult, type I18nProvider } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../../../admin/src/generated/index.ts';
import en from '../../../admin/src/generated/messages.en-US.json';
import { ScreenPage } from '../../../admin/src/screens/index.tsx';

/** the English catalogue, by key */
export const msg = en as Record<string, string>;

/** the compiled screen the test names by a predicate (its name, its component) */
export const screenWhere = (pick: (s: CompiledScreen) => boolean): CompiledScreen => {
  const s = metadata.screens.find(pick);
  if (!s) throw new Error('renderScreen: no such screen in the metadata');
  return s as CompiledScreen;
};

type GetList = (resource: string, params: GetListParams) => Promise<Pick<GetListResult, 'data' | 'total'>>;
type PortalMethods = Record<'runAction' | 'upload' | 'download' | 'exportList', (...args: never[]) => Promise<unknown>>;

/** Renders `screen` with `getList` answering its lists; the answer is the dataProvider the page was given. */
export function renderScreen(screen: CompiledScreen, i18n: I18nProvider, getList: GetList, portal: Partial<PortalMethods> = {}) {
  const dataProvider = {
    ...testDataProvider({ getList: getList as never }),
    runAction: vi.fn(),
    upload: vi.fn(),
    download: vi.fn(),
    exportList: vi.fn(),
    ...portal,
  };
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18n} store={memoryStore()}>
      <ScreenPage screen={screen} />
    </AdminContext>,
  );
  return dataProvider;
}
