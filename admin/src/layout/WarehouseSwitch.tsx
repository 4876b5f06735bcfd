/**
 * The current warehouse (PDC) with a switch (spec 4: changing warehouse replaces the token and
 * refreshes user info and routes). POST /connect/warehouse gives a token for the other PDC.
 */
import { useState, type MouseEvent } from 'react';
import { Button, Menu, MenuItem, Tooltip } from '@mui/material';
import WarehouseIcon from '@mui/icons-material/Warehouse';
import { useLocaleState, useTranslate } from 'react-admin';
import { useUser } from '../providers/hooks.ts';
import { useWarehouses, warehouseLabel } from '../auth/warehouses.ts';
import { useWarehouseChooser } from './warehouseChooser.ts';

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
