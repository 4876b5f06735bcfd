/**
 * The frame of the sign-in flow's public pages (forgot password, set a new password): the login
 * page's background and card, the portal's name, the page title and the document title.
 */
import type { ReactNode } from 'react';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import LocalShipping from '@mui/icons-material/LocalShipping';
import { useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { useDocumentTitle } from '../routing/useDocumentTitle.ts';

export function AuthCard({ screen, testId, children }: { screen: CompiledScreen; testId: string; children: ReactNode }) {
  const translate = useTranslate();
  useDocumentTitle(screen.titleKey);
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
      <Card sx={{ width: '100%', maxWidth: 440, borderRadius: 2 }} elevation={8}>
        <CardContent sx={{ p: 4 }}>
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
        </CardContent>
      </Card>
    </Box>
  );
}
