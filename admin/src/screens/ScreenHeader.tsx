/**
 * The page heading: the screen's translated title for the user's profile (the shell puts the same title in the document
 * title, breadcrumb and tab). Buttons of the page go to its right.
 */
import type { ReactElement, ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { screenTitleKey } from '../../../codegen/runtime/screen-title.ts';
import { useUser } from '../providers/hooks.ts';

export function ScreenHeader({ screen, children }: { screen: CompiledScreen; children?: ReactNode }): ReactElement {
  const translate = useTranslate();
  const user = useUser();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
      <Typography component="h1" variant="h6" sx={{ fontSize: 16, fontWeight: 600, mr: 'auto' }} data-testid="screen-title">
        {translate(screenTitleKey(screen, user?.profile))}
      </Typography>
      {children}
    </Box>
  );
}
