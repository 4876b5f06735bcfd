/**
 * A dashboard chart as GET /api/home/charts answers it (server/home/charts.ts), read by the admin's
 * HomeCharts: every label already in the caller's language, one point per code of the grouped
 * field's code table (in its declared order) or per day of the window (oldest first, UTC), zeros
 * included, so the chart and the table behind it show the same rows.
 */
import { dateFromToday } from './tiles.ts';

export interface ChartPoint {
  /** the stored code or the day (yyyy-MM-dd) */
  key: string;
  label: string;
  value: number;
}

export interface ChartData {
  key: string;
  title: string;
  /** the value axis's label and the table's value column */
  valueLabel: string;
  /** the grouped field's label (the table's first column) */
  groupLabel: string;
  kind: 'bar' | 'line';
  bucket: 'code' | 'day';
  points: ChartPoint[];
}

/** The days of a window of `lastDays` days ending today (UTC), oldest first. */
export function windowDays(lastDays: number, now: Date = new Date()): string[] {
  return Array.from({ length: lastDays }, (_, i) => dateFromToday(i - lastDays + 1, now));
}
