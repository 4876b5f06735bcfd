/**
 * The drawing of one dashboard chart with @mui/x-charts. Loaded on its own (chartDrawing.ts, for
 * HomeCharts) so the chart library lands in a chunk of its own that only a dashboard with charts
 * fetches, never in the sign-in page's. The drawing is hidden from screen readers and takes no focus:
 * the table beside it (HomeCharts) carries the same numbers for them and for the keyboard.
 */
import type { ReactElement } from 'react';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { ChartData } from '../../../../codegen/runtime/charts.ts';

/** a day bucket's tick shows month and day (the table keeps the full date) */
const tickOf = (chart: ChartData) => (label: string) => (chart.bucket === 'day' ? label.slice(5) : label);

export default function ChartCanvas({ chart }: { chart: ChartData }): ReactElement {
  const labels = chart.points.map((p) => p.label);
  const values = chart.points.map((p) => p.value);
  const common = {
    height: 260,
    yAxis: [{ label: chart.valueLabel, tickMinStep: 1 }],
    series: [{ data: values, label: chart.valueLabel }],
    // the drawing is aria-hidden (the table speaks for it), so it holds nothing focusable: no keyboard navigation of its own
    disableKeyboardNavigation: true,
    // drawn at once: the entry animation re-renders the chart frame after frame on the page's busiest
    // moment (the home right after a login), and a phone's CPU is what it costs most
    skipAnimation: true,
  };
  const xAxis = [{ data: labels, label: chart.groupLabel, valueFormatter: tickOf(chart) }];
  return chart.kind === 'line' ? (
    <LineChart {...common} xAxis={[{ ...xAxis[0], scaleType: 'point' as const }]} />
  ) : (
    <BarChart {...common} xAxis={[{ ...xAxis[0], scaleType: 'band' as const }]} />
  );
}
