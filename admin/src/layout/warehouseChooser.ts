/**
 * Changing the session's warehouse (spec 4), shared by the header's switch (WarehouseSwitch.tsx)
 * and the claim-warehouse notice (routing/ClaimWarehouseOnly.tsx). A module of its own: the
 * notice's route is part of the app's first script, and importing the hook from the switch's
 * module would bring the header's menus and tooltips into the sign-in page's script.
 */
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { fetchSession } from '../providers/authProvider.ts';
import { legacyPost } from '../providers/httpClient.ts';
import { SESSION_QUERY_KEY, useUser } from '../providers/hooks.ts';
import { screenAllowed } from '../providers/permissions.ts';
import { setStoredWarehouse, setToken } from '../providers/storage.ts';
import { HOME_PATH, screenForPath } from '../routing/routeTable.ts';

/** Switches the session to another warehouse; a screen the new warehouse refuses goes home (used by the header's switch and the claim-warehouse notice). */
export function useWarehouseChooser(): (code: string) => Promise<void> {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUser();
  return async (code: string) => {
    if (!user || code === user.warehouseCode) return;
    try {
      const json = await legacyPost<{ access_token: string }>('/connect/warehouse', { warehouse: code });
      setToken(json.access_token);
      setStoredWarehouse(code);
      const session = await fetchSession();
      queryClient.setQueryData(SESSION_QUERY_KEY, session);
      // every list and record may differ in the other warehouse
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== SESSION_QUERY_KEY[0] });
      // the address now, not the one of this hook's last render: a navigation still rendering (a
      // screen's chunk loading, or the user moving on while the switch waited for the server) has
      // changed the address but not yet the components (issue 34: the switch, clicked while the
      // claim list was still loading, left it open at a warehouse that refuses it)
      const screen = screenForPath(window.location.pathname);
      if (screen && !screenAllowed(screen, session.user)) navigate(HOME_PATH);
    } catch (e) {
      notify((e as Error).message || 'error.generic', { type: 'error' });
    }
  };
}
