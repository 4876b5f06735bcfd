/**
 * Language switch (header and login page). react-admin's useLocaleState writes the Store's
 * 'locale', which portalStore maps onto our own preference: the choice survives logout.
 */
import { useState, type MouseEvent } from 'react';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import Translate from '@mui/icons-material/Translate';
import { useLocaleState, useTranslate } from 'react-admin';
import { LOCALE_NAMES } from '../i18n/shell.ts';
import { SUPPORTED } from '../providers/i18nProvider.ts';

export function LocaleSwitch() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={translate('shell.header.language')}>
        <IconButton
          onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
          data-testid="locale-switch"
          aria-label={translate('shell.header.language')}
        >
          <Translate fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {SUPPORTED.map((l) => (
          <MenuItem
            key={l}
            selected={l === locale}
            data-testid={`locale-${l}`}
            onClick={() => {
              setAnchor(null);
              if (l !== locale) setLocale(l);
            }}
          >
            {LOCALE_NAMES[l]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
