/**
 * A claim screen opened at a warehouse that is not a claim warehouse (a deep link, a bookmark):
 * instead of a bare 401 page, inside the layout, the reason (claims are only available in claim
 * warehouses) and a button per claim warehouse that switches the session there, after which the
 * screen itself opens (issue 20 point 5).
 */
import type { ReactElement } from 'react';
import { Alert, Box, Button, Paper } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { useWarehouses, warehouseLabel } from '../auth/warehouses.ts';
import { useWarehouseChooser } from '../layout/warehouseChooser.ts';

export function ClaimWarehouseOnly(): ReactElement {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { warehouses } = useWarehouses();
  const switchTo = useWarehouseChooser();
  return (
    <Box sx={{ p: 2 }}>
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }} data-testid="claim-warehouse-only">
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('ui.claimWarehouseOnly')}
        </Alert>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {warehouses
            .filter((w) => w.isClaimWarehouse)
            .map((w) => (
              <Button key={w.code} variant="contained" size="small" onClick={() => void switchTo(w.code)} data-testid={`switch-to-${w.code}`}>
                {translate('ui.switchWarehouseTo', { warehouse: warehouseLabel(w, locale) })}
              </Button>
            ))}
        </Box>
      </Paper>
    </Box>
  );
}
