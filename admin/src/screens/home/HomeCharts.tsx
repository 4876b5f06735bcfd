/**
 * The charts of a dashboard (metadata: the screen's "charts"): the data comes from
 * GET /api/home/charts, which answers only the charts whose list the caller may open, aggregated in
 * its scope and labelled in its language. Each chart is a figure: its title, the drawing (a chunk
 * of its own, chartDrawing.ts) and a table with the same numbers behind it for screen readers, which a
 * button also shows on screen.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { Box, Button, CircularProgress, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import type { ChartData } from '../../../../codegen/runtime/charts.ts';
import { loadCharts } from './homeData.ts';
import { ChartCanvas } from './chartDrawing.ts';

function ChartTable({ chart, shown }: { chart: ChartData; shown: boolean }): ReactElement {
  const translate = useTranslate();
  return (
    <Table size="small" sx={shown ? { mt: 1 } : visuallyHidden} data-testid={`chart-table-${chart.key}`}>
      <caption style={shown ? undefined : visuallyHidden}>{translate('chart.tableOf', { title: chart.title })}</caption>
      <TableHead>
        <TableRow>
          <TableCell component="th" scope="col">
            {chart.groupLabel}
          </TableCell>
          <TableCell component="th" scope="col" align="right">
            {chart.valueLabel}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {chart.points.map((p) => (
          <TableRow key={p.key} data-testid="chart-row">
            <TableCell component="th" scope="row">
              {p.label}
            </TableCell>
            <TableCell align="right">{p.value.toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Whether the drawing's chunk is there ('failed' when it could not be fetched). The drawing is
 * rendered only then, so it never suspends: a Suspense boundary that showed its fallback reveals
 * its content no sooner than 300 ms later (React's reveal throttle); a state change draws at once.
 */
function useChartCanvas(): 'ready' | 'failed' | undefined {
  const [state, setState] = useState<'ready' | 'failed' | undefined>(() => (ChartCanvas.loaded() ? 'ready' : undefined));
  useEffect(() => {
    if (state) return;
    let live = true;
    ChartCanvas.preload().then(
      () => live && setState('ready'),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, [state]);
  return state;
}

function ChartFigure({ chart }: { chart: ChartData }): ReactElement {
  const translate = useTranslate();
  const [tableShown, setTableShown] = useState(false);
  const empty = chart.points.every((p) => p.value === 0);
  const titleId = `chart-title-${chart.key}`;
  const drawing = useChartCanvas();
  return (
    <Paper variant="outlined" component="figure" aria-labelledby={titleId} sx={{ m: 0, p: 1.5, minWidth: 0 }} data-testid={`chart-${chart.key}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography id={titleId} variant="subtitle2" component="h3" sx={{ flex: 1, fontWeight: 600 }}>
          {chart.title}
        </Typography>
        <Button size="small" onClick={() => setTableShown((v) => !v)} aria-expanded={tableShown} data-testid={`chart-table-toggle-${chart.key}`}>
          {translate(tableShown ? 'chart.hideTable' : 'chart.showTable')}
        </Button>
      </Box>
      {empty && (
        <Typography variant="body2" color="text.secondary">
          {translate('chart.empty')}
        </Typography>
      )}
      <Box aria-hidden="true" data-testid={`chart-canvas-${chart.key}`}>
        {drawing === 'failed' ? (
          <Typography variant="body2" color="error" data-testid="chart-drawing-failed">
            {translate('chart.failed')}
          </Typography>
        ) : drawing === 'ready' ? (
          <ChartCanvas chart={chart} />
        ) : (
          <CircularProgress size={20} aria-label={translate('chart.loading')} />
        )}
      </Box>
      <ChartTable chart={chart} shown={tableShown} />
    </Paper>
  );
}

export function HomeCharts({ screen }: { screen: CompiledScreen }): ReactElement | null {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const charted = !!screen.charts?.length;
  // the drawing's code loads beside the numbers, not after them, and never ahead of the layout (screens/index.tsx)
  useEffect(() => void (charted && ChartCanvas.preload().catch(() => undefined)), [charted]);
  const { data, isError } = useQuery({
    // the labels come in the caller's language: a language switch reads them again
    queryKey: ['homeCharts', screen.name, locale],
    queryFn: () => loadCharts(screen.name, locale),
    refetchOnWindowFocus: true,
    retry: false,
  });
  if (!charted) return null;
  if (isError)
    return (
      <Typography color="error" variant="body2" sx={{ mb: 1 }} data-testid="home-charts-failed">
        {translate('chart.failed')}
      </Typography>
    );
  if (!data?.length) return null;
  return (
    <Box component="section" aria-label={translate('chart.title')} sx={{ mb: 2 }} data-testid="home-charts">
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(420px, 100%), 1fr))' }}>
        {data.map((c) => (
          <ChartFigure key={c.key} chart={c} />
        ))}
      </Box>
    </Box>
  );
}
