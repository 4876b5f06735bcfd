/**
 * Entry of the generated screens: the shell's router renders <ScreenPage screen={...} /> for every
 * screen of kind list / edit / show / dashboard / custom. Everything a screen shows comes from its
 * metadata; a screen that names a `component` gets that special component (admin/src/custom/).
 * Loaded lazily by the shell (default export), and each special component lazily again.
 */
import { Suspense, type ReactElement } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { customComponents } from '../custom/index.ts';
import { preloadable } from './preloadable.tsx';
import { ScreenHeader } from './ScreenHeader.tsx';

// each kind in its own chunk: the dashboard (a special component) needs none of them, and the list
// and edit screens bring the date pickers (@mui/x-date-pickers, the largest library of the admin)
export const ListScreen = preloadable(() => import('./list/ListScreen.tsx').then((m) => m.ListScreen));
export const EditScreen = preloadable(() => import('./edit/EditScreen.tsx').then((m) => m.EditScreen));
export const ShowScreen = preloadable(() => import('./show/ShowScreen.tsx').then((m) => m.ShowScreen));
const kindFallback = <CircularProgress size={24} sx={{ m: 3 }} />;

export interface ScreenPageProps {
  screen: CompiledScreen;
}

function Fallback({ screen }: ScreenPageProps): ReactElement {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 1 }} data-testid={`screen-${screen.name}`}>
      <ScreenHeader screen={screen} />
      <Typography color="text.secondary">{translate('ui.noData')}</Typography>
    </Box>
  );
}

export function ScreenPage({ screen }: ScreenPageProps): ReactElement {
  const Special = screen.component ? customComponents[screen.component] : undefined;
  if (Special) {
    return (
      <Suspense fallback={<CircularProgress size={24} sx={{ m: 3 }} />}>
        <Special key={screen.name} screen={screen} />
      </Suspense>
    );
  }
  // key: two screens of one kind (e.g. the three order lists) never share state
  return <Suspense fallback={kindFallback}>{screenOfKind(screen)}</Suspense>;
}

/**
 * Fetches the code a screen renders with (its special component or its kind's chunk), so that its
 * first render does not suspend: every lazy boundary that shows its fallback delays its content by
 * React's reveal throttle (300 ms), and a page opened at a screen would otherwise pay it once per
 * chunk in the chain. Not the chart drawing (the largest library): fetched beside the layout's
 * chunks, its bytes delayed the layout by 0.2-0.3 s on slow 4G (bench `wan`, log-in step: 146.7
 * against 56.3 kB). HomeCharts asks for it once it mounts and draws it when it arrives, without
 * suspending.
 */
export function preloadScreenCode(screen: CompiledScreen): Promise<unknown> {
  const special = screen.component ? customComponents[screen.component] : undefined;
  const kinds: Partial<Record<CompiledScreen['kind'], { preload: () => Promise<unknown> }>> = { list: ListScreen, edit: EditScreen, show: ShowScreen };
  return Promise.resolve((special ?? kinds[screen.kind])?.preload());
}

function screenOfKind(screen: CompiledScreen): ReactElement {
  switch (screen.kind) {
    case 'list':
      return <ListScreen key={screen.name} screen={screen} />;
    case 'edit':
      return <EditScreen key={screen.name} screen={screen} />;
    case 'show':
      return <ShowScreen key={screen.name} screen={screen} />;
    default:
      return <Fallback key={screen.name} screen={screen} />;
  }
}

export default ScreenPage;
