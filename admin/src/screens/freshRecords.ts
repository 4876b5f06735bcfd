/**
 * Every record shown after a write carries the version that write produced. The server answers a
 * save or an action with the record as it now is (version bumped); these hooks put that answer
 * into react-query's caches at once (the record's getOne, and its row in every cached getList /
 * getMany of the resource), so the next save or action on the same page sends the new version
 * instead of failing with the concurrent-edit message (error.staleVersion), which the spec keeps
 * for a real concurrent edit. The background refresh that follows a write then only confirms it.
 */
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RaRecord } from 'react-admin';

type ListData = { data: RaRecord[]; [k: string]: unknown } | undefined;

export function useFreshRecords(): (resource: string, records: readonly RaRecord[] | RaRecord | null | undefined) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (resource, records) => {
      const list = (Array.isArray(records) ? records : records ? [records] : []).filter(
        (r): r is RaRecord => !!r && typeof r === 'object' && r.id !== undefined && r.id !== null,
      );
      if (!list.length) return;
      const byId = new Map(list.map((r) => [String(r.id), r]));
      for (const r of list)
        queryClient.setQueriesData({ queryKey: [resource, 'getOne', { id: String(r.id) }] }, (old: RaRecord | undefined) => (old ? { ...old, ...r } : r));
      const swap = (row: RaRecord) => {
        const fresh = byId.get(String(row.id));
        return fresh ? { ...row, ...fresh } : row;
      };
      queryClient.setQueriesData({ queryKey: [resource, 'getList'] }, (old: ListData) =>
        old && Array.isArray(old.data) ? { ...old, data: old.data.map(swap) } : old,
      );
      queryClient.setQueriesData({ queryKey: [resource, 'getMany'] }, (old: RaRecord[] | undefined) => (Array.isArray(old) ? old.map(swap) : old));
    },
    [queryClient],
  );
}
