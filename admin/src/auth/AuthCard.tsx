/**
 * The frame of the sign-in flow's public pages: `AuthFrame` is the background and card the login
 * page shares; `AuthCard` adds the portal's name, the page title and the document title (forgot
 * password, set a new password); `BusySubmitButton` is their forms' submit button, with a spinner
 * while the call runs.
 */
import type { ReactNode } from 'react';
import { Box, Button, Card, CardContent, CircularProgress, Stack, Typography, type SxProps, type Theme } from '@mui/material';
import LocalShipping from '@mui/icons-material/LocalShipping';
import { useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { useDocumentTitle } from '../routing/useDocumentTitle.ts';

export function AuthCard({ screen, testId, children }: { screen: CompiledScreen; testId: string; children: ReactNode }) {
  const translate = useTranslate();
  useDocumentTitle(screen.titleKey);
  return (
    <AuthFrame testId={testId} maxWidth={440}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 0.5 }}>
        <LocalShipping color="primary" sx={{ fontSize: 32 }} />
        <Typography variant="subtitle1" color="text.secondary">
          {translate(metadata.app.titleKey)}
        </Typography>
      </Stack>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 600, mb: 2 }}>
        {translate(screen.titleKey)}
      </Typography>
      {children}
    </AuthFrame>
  );
}

export function AuthFrame({ testId, maxWidth, children }: { testId: string; maxWidth: number; children: ReactNode }) {
  return (
    <Box
      data-testid={testId}
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: (t) => `linear-gradient(135deg, #2d3a4b 0%, #2d3a4b 55%, ${t.palette.primary.dark} 100%)`,
      }}
    >
      <Card sx={{ width: '100%', maxWidth, borderRadius: 2 }} elevation={8}>
        <CardContent sx={{ p: 4 }}>{children}</CardContent>
      </Card>
    </Box>
  );
}

export function BusySubmitButton({ busy, testId, sx, children }: { busy: boolean; testId: string; sx?: SxProps<Theme>; children: ReactNode }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      disabled={busy}
      data-testid={testId}
      sx={sx}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {children}
    </Button>
  );
}
