/**
 * React views of the session kept outside React (storage.ts, authEvents.ts), and the session
 * query: the user info fetched once per page load (the route guard of spec 2), shared by the
 * guard, the clock (server time) and the header (user name, warehouse).
 */
import { useMemo, useSyncExternalStore } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { authEvents, type AuthEventState } from './authEvents.ts';
import { fetchSession, recentSession, type SessionInfo } from './authProvider.ts';
import { getAccountStatus, getToken, KEYS, read, subscribeSession, type PortalUser } from './storage.ts';

export const useToken = (): string | null => useSyncExternalStore(subscribeSession, getToken);
export const useAccountStatus = (): number | null => useSyncExternalStore(subscribeSession, getAccountStatus);
export const useAuthEvents = (): AuthEventState => useSyncExternalStore(authEvents.subscribe, authEvents.get);

/** The stored user; parsed once per change (the snapshot is the raw string, stable between renders). */
export function useUser(): PortalUser | null {
  const raw = useSyncExternalStore(subscribeSession, () => read(KEYS.user));
  return useMemo(() => {
    if (!raw) return null;
    try {
      return JSON.parse(raw) as PortalUser;
    } catch {
      return null;
    }
  }, [raw]);
}

export const SESSION_QUERY_KEY = ['portal', 'session'] as const;

export function useSessionQuery(): UseQueryResult<SessionInfo, Error> {
  const token = useToken();
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    // the guard redirects to login itself on failure: no 401 dialog for this call
    queryFn: () => recentSession() ?? fetchSession({ skipAuthDialog: true }),
    enabled: !!token,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
