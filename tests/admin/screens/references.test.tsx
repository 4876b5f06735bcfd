/**
 * Reference columns show the referenced record's title (references.ts): one getMany per column;
 * a refusal leaves the ids, and any other failure is asked again instead of being kept as "no
 * titles" for the cache's lifetime.
 */
import { QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { CoreAdminContext, HttpError, type DataProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metadata } from '../../../admin/src/generated/index.ts';
import { setToken, setUser, type PortalUser } from '../../../admin/src/providers/storage.ts';
import { useReferenceTitles } from '../../../admin/src/screens/references.ts';
import { resetBrowserState, supplierUser } from '../helpers.ts';

const line = metadata.entities.settlementLine;
const rows = [
  { id: 1, settlementId: 7 },
  { id: 2, settlementId: 8 },
  { id: 3, settlementId: null },
];

/** A data provider whose getMany answers from `answers` in turn (an Error is thrown); the calls are counted. */
function provider(answers: (Error | { id: number; settlementNo: string }[])[]) {
  const calls: { resource: string; ids: unknown[] }[] = [];
  const dp = {
    getMany: async (resource: string, params: { ids: unknown[] }) => {
      calls.push({ resource, ids: params.ids });
      const a = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (a instanceof Error) throw a;
      return { data: a };
    },
  } as unknown as DataProvider;
  return { dp, calls };
}

function render(dp: DataProvider) {
  const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 1 } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <CoreAdminContext dataProvider={dp} queryClient={client}>
      {children}
    </CoreAdminContext>
  );
  return renderHook(() => useReferenceTitles(line, ['settlementId'], rows), { wrapper });
}

const titles = [
  { id: 7, settlementNo: 'JS0007' },
  { id: 8, settlementNo: 'JS0008' },
];

beforeEach(() => {
  setToken('t');
  setUser({ ...supplierUser } as unknown as PortalUser);
});
afterEach(resetBrowserState);

describe('reference titles', () => {
  it('asks once for the ids on screen (not the empty ones) and maps each id to its title', async () => {
    const { dp, calls } = provider([titles]);
    const { result } = render(dp);
    await waitFor(() => expect(result.current.settlementId?.get('7')).toBe('JS0007'));
    expect(result.current.settlementId?.get('8')).toBe('JS0008');
    expect(calls).toEqual([{ resource: 'settlements', ids: ['7', '8'] }]);
  });

  it('a failure that is not a refusal (503, network) is asked again, and the titles come', async () => {
    const { dp, calls } = provider([new HttpError('unavailable', 503, {}), new TypeError('Failed to fetch'), titles]);
    const { result } = render(dp);
    await waitFor(() => expect(result.current.settlementId?.get('7')).toBe('JS0007'));
    expect(calls).toHaveLength(3);
  });

  it('a refusal (403) leaves the ids and is not asked again', async () => {
    const { dp, calls } = provider([new HttpError('forbidden', 403, {}), titles]);
    const { result } = render(dp);
    await waitFor(() => expect(result.current.settlementId).toBeInstanceOf(Map));
    expect(result.current.settlementId?.size).toBe(0);
    expect(calls).toHaveLength(1);
  });
});
