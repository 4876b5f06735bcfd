/**
 * The saved views of a list screen on the server (GET/POST/PUT/DELETE /api/views), the caller's
 * own only, cached by react-query per screen.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { httpClient } from '../../providers/httpClient.ts';
import type { SavedView, ViewState } from '../../../../codegen/runtime/saved-view.ts';

export type { SavedView, ViewState };

const key = (screen: string) => ['savedViews', screen];

export function useSavedViews(screen: string) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: key(screen),
    queryFn: async () => (await httpClient(`/api/views?screen=${encodeURIComponent(screen)}`)).json as SavedView[],
    staleTime: 60_000,
    // a 401 raises the one login-timeout dialog; a retry would raise it again after Cancel
    retry: false,
  });
  const send = useCallback(
    async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<SavedView | undefined> => {
      const r = await httpClient(url, { method, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      await client.invalidateQueries({ queryKey: key(screen) });
      return r.json as SavedView | undefined;
    },
    [client, screen],
  );
  return {
    views: query.data ?? [],
    loaded: query.isSuccess,
    create: (name: string, state: ViewState, isDefault: boolean) => send('POST', '/api/views', { screen, name, state, isDefault }),
    update: (id: number, change: { name?: string; state?: ViewState; isDefault?: boolean }) => send('PUT', `/api/views/${id}`, change),
    remove: (id: number) => send('DELETE', `/api/views/${id}`),
  };
}
