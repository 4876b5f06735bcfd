/**
 * The current warehouse (PDC) with a switch (spec 4: changing warehouse replaces the token and
 * refreshes user info and routes). POST /connect/warehouse gives a token for the other PDC.
 */
import { useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button, Menu, MenuItem, Tooltip } from '@mui/material';
import WarehouseIcon from '@mui/icons-material/Warehouse';
import { useQueryClient } from '@tanstack/react-query';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { fetchSession } from '../providers/authProvider.ts';
import { legacyPost } from '../providers/httpClient.ts';
import { useUser } from '../providers/hooks.ts';
import { screenAllowed } from '../providers/permissions.ts';
import { setStoredWarehouse, setToken } from '../providers/storage.ts';
import { HOME_PATH, screenForPath } from '../routing/routeTable.ts';
import { useWarehouses, warehouseLabel } from '../auth/warehouses.ts';
import { SESSION_QUERY_KEY } from '../providers/hooks.ts';

/** Switches the session to another warehouse; a screen the new warehouse refuses goes home (used by the header's switch and the claim-warehouse notice). */
export function useWarehouseChooser(): (code: string) => Promise<void> {
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
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
      const screen = screenForPath(location.pathname);
      if (screen && !screenAllowed(screen, session.user)) navigate(HOME_PATH);
    } catch (e) {
      notify((e as Error).message || 'error.generic', { type: 'error' });
    }
  };
}

export function WarehouseSwitch() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const user = useUser();
  const { warehouses } = useWarehouses();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = warehouses.find((w) => w.code === user?.warehouseCode);
  const switchTo = useWarehouseChooser();
  const choose = async (code: string) => {
    setAnchor(null);
    await switchTo(code);
  };

  return (
    <>
      {/* describeChild: the tooltip describes the button; its name stays the warehouse it shows (WCAG 2.5.3) */}
      <Tooltip title={translate('shell.header.warehouse')} describeChild>
        <Button
          onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
          startIcon={<WarehouseIcon fontSize="small" />}
          data-testid="warehouse-switch"
          sx={{ textTransform: 'none', color: 'text.primary', whiteSpace: 'nowrap' }}
        >
          {current ? warehouseLabel(current, locale) : user?.warehouseCode}
        </Button>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {warehouses.map((w) => (
          <MenuItem key={w.code} selected={w.code === user?.warehouseCode} onClick={() => void choose(w.code)} data-testid={`warehouse-${w.code}`}>
            {warehouseLabel(w, locale)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
