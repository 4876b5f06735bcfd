/**
 * "Skip to content" (WCAG 2.4.1): the first thing Tab reaches on every page of the layout, shown
 * only while it has the focus; it moves the focus to the page's main region, past the sidebar
 * menu, the header and the tab bar (14 Tab presses before it).
 */
import type { MouseEvent, ReactElement } from 'react';
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';

export const MAIN_CONTENT_ID = 'main-content';

/** Off screen but readable by screen readers until focused (the usual visually-hidden pattern). */
const hidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

export function SkipLink(): ReactElement {
  const translate = useTranslate();
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      data-testid="skip-link"
      onClick={(e: MouseEvent) => {
        // focus, not only scroll: the next Tab starts inside the content
        e.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
      sx={{
        '&:not(:focus)': hidden,
        '&:focus': {
          position: 'fixed',
          left: 8,
          top: 8,
          zIndex: (t) => t.zIndex.tooltip + 1,
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          boxShadow: 3,
          borderRadius: 1,
        },
      }}
    >
      {translate('ui.skipToContent')}
    </Box>
  );
}
