/**
 * Cell formatting, built once per column (not per cell): a 500-row page formats ~10k values, so
 * each formatter is a plain function closing over precomputed look-ups (code labels in a Map,
 * one Intl.NumberFormat). Dates follow app.dateFormat (yyyy-MM-dd), date-times app.dateTimeFormat
 * (yyyy-MM-dd HH:mm:ss) in the browser's time zone; the server stores date-times in UTC ISO form.
 */
import type { CompiledColumn, CompiledField } from '../../../codegen/runtime/model.ts';
import { codeLabelKey, metadata } from './meta.ts';

export type Translate = (key: string, options?: Record<string, unknown>) => string;
export type Formatter = (value: unknown) => string;
export type ColumnFormat = CompiledColumn['format'];

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** yyyy-MM-dd; a plain date string is kept as is (no time zone shift), an instant is shown locally */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) return s;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** yyyy-MM-dd HH:mm:ss in local time */
export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) return s;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatFileSize(value: unknown): string {
  const n = Number(value);
  if (value === null || value === undefined || Number.isNaN(n)) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A JSON text indented for reading (a payload, an answer); text that is no JSON is shown as it is. */
export function formatJson(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value);
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
}

/**
 * Builds the formatter of one column (or one field shown in a form/detail). `titles`: a reference
 * field's id -> the referenced record's title (references.ts); an id without one shows as is.
 */
export function makeFormatter(field: CompiledField | undefined, format: ColumnFormat, translate: Translate, locale: string, titles?: ReadonlyMap<string, string>): Formatter {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (field?.type === 'ref') return (v) => (empty(v) ? '' : (titles?.get(String(v)) ?? String(v)));
  if (format === 'date' || (!format && field?.type === 'date')) return formatDate;
  if (format === 'datetime' || (!format && field?.type === 'datetime')) return formatDateTime;
  if (format === 'fileSize') return formatFileSize;
  if (format === 'json') return formatJson;
  if (format === 'money') {
    const nf = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return (v) => (empty(v) || Number.isNaN(Number(v)) ? (empty(v) ? '' : String(v)) : nf.format(Number(v)));
  }
  if (field?.type === 'code' && field.codeTable) {
    const table = metadata.codeTables[field.codeTable];
    const labels = new Map<string, string>();
    for (const v of table?.values ?? []) labels.set(v.code, translate(codeLabelKey(table.name, v.code), { _: v.code }));
    return (v) => (empty(v) ? '' : (labels.get(String(v)) ?? String(v)));
  }
  if (field?.type === 'boolean') {
    const yes = translate('ra.boolean.true', { _: 'Yes' });
    const no = translate('ra.boolean.false', { _: 'No' });
    return (v) => (v === true || v === 1 || v === '1' || v === 'true' ? yes : empty(v) ? '' : no);
  }
  return (v) => (empty(v) ? '' : String(v));
}

/** Numbers read best right-aligned. */
export function alignOf(field: CompiledField | undefined, format: ColumnFormat): 'left' | 'right' | 'center' {
  if (format === 'money' || format === 'number' || format === 'fileSize') return 'right';
  if (field && (field.type === 'integer' || field.type === 'decimal')) return 'right';
  if (field?.type === 'boolean') return 'center';
  return 'left';
}

/** A default column width (px) by type, used when the metadata gives none: table-layout is fixed. */
export function widthOf(field: CompiledField | undefined, format: ColumnFormat, label: string): number {
  const labelWidth = Math.min(220, 16 + [...label].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 13 : 7), 0));
  let w = 110;
  if (format === 'datetime' || field?.type === 'datetime') w = format === 'date' ? 96 : 150;
  else if (format === 'date' || field?.type === 'date') w = 96;
  else if (field?.type === 'integer' || field?.type === 'decimal' || format === 'money') w = 90;
  else if (field?.type === 'boolean') w = 70;
  else if (field?.type === 'code') w = 100;
  else if (field?.maxLength && field.maxLength >= 200) w = 240;
  else if (field?.maxLength && field.maxLength >= 100) w = 170;
  return Math.max(w, labelWidth);
}
