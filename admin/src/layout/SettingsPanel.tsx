/** The settings panel (spec 2): theme colour, tab bar, fixed header, sidebar logo; remembered. */
import { Box, Button, Divider, Drawer, FormControlLabel, IconButton, Stack, Switch, Tooltip, Typography } from '@mui/material';
import Check from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { DEFAULT_SETTINGS, useSettings, type Settings } from './settings.tsx';

/** The default first, then a few colours that keep white text readable. */
export const THEME_COLORS = [DEFAULT_SETTINGS.themeColor, '#11a983', '#13c2c2', '#6959cd', '#f5222d', '#fa541c', '#304156'].filter(
  (c, i, a) => a.indexOf(c) === i,
);

export function SettingsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const { settings, update, reset } = useSettings();
  const toggles: { key: keyof Omit<Settings, 'themeColor'>; label: string }[] = [
    { key: 'tagsView', label: 'shell.settings.tagsView' },
    { key: 'fixedHeader', label: 'shell.settings.fixedHeader' },
    { key: 'sidebarLogo', label: 'shell.settings.sidebarLogo' },
  ];
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 300 } } }}>
      <Box data-testid="settings-panel" sx={{ p: 2.5 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600 }}>
            {translate('shell.settings.title')}
          </Typography>
          <IconButton onClick={onClose} aria-label={translate('ra.action.close')}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Stack>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('shell.settings.themeColor')}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
          {THEME_COLORS.map((c) => (
            <Tooltip key={c} title={c}>
              <Box
                component="button"
                type="button"
                aria-label={c}
                aria-pressed={settings.themeColor.toLowerCase() === c}
                data-testid={`theme-color-${c.slice(1)}`}
                onClick={() => update({ themeColor: c })}
                sx={{
                  width: 26,
                  height: 26,
                  borderRadius: 0.5,
                  border: 0,
                  cursor: 'pointer',
                  bgcolor: c,
                  color: '#fff',
                  display: 'inline-flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  p: 0,
                }}
              >
                {settings.themeColor.toLowerCase() === c && <Check sx={{ fontSize: 18 }} />}
              </Box>
            </Tooltip>
          ))}
          <Box
            component="input"
            type="color"
            aria-label={translate('shell.settings.themeColor')}
            data-testid="theme-color-input"
            value={settings.themeColor}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => update({ themeColor: e.target.value })}
            sx={{ width: 32, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
          />
        </Stack>
        <Divider sx={{ my: 2 }} />
        {toggles.map((t) => (
          <FormControlLabel
            key={t.key}
            labelPlacement="start"
            sx={{ display: 'flex', justifyContent: 'space-between', ml: 0, my: 0.5 }}
            control={
              <Switch
                checked={settings[t.key]}
                onChange={(_, v) => update({ [t.key]: v })}
                slotProps={{ input: { 'data-testid': `setting-${t.key}` } as React.InputHTMLAttributes<HTMLInputElement> }}
              />
            }
            label={translate(t.label)}
          />
        ))}
        <Divider sx={{ my: 2 }} />
        <Button variant="outlined" fullWidth onClick={reset} data-testid="settings-reset">
          {translate('shell.settings.reset')}
        </Button>
      </Box>
    </Drawer>
  );
}
