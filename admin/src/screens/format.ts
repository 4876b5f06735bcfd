/**
 * Cell formatting, built once per column (not per cell): a 500-row page formats ~10k values, so
 * each formatter is a plain function closing over precomputed look-ups (code labels in a Map,
 * one Intl.NumberFormat). Dates follow app.dateFormat (yyyy-MM-dd), date-times app.dateTimeFormat
 * (yyyy-MM-dd HH:mm:ss) in the browser's time zone; the server stores date-times in UTC ISO form.
 */
import type { CompiledColumn, CompiledField } from '../../../codegen/runtime/model.ts';
import { codeLabelKey, metadata } from './meta.ts';
import { CELL_EXTRA_PX, textMeasurer } from './table/measure.ts';

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
export function makeFormatter(
  field: CompiledField | undefined,
  format: ColumnFormat,
  translate: Translate,
  locale: string,
  titles?: ReadonlyMap<string, string>,
): Formatter {
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

/** characters identifiers are made of: an identifier column fits maxLength of them at their average width */
const IDENTIFIER_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-';
/** free text wider than this is cut off with an ellipsis (the full text is in the cell's title; columns are resizable) */
const MAX_TEXT_PX = 240;
const MIN_TEXT_PX = 60;
/** the sort mark (aria-sort ::after) and the resize grip beside a sortable header's label */
const SORT_MARK_PX = 14;

/** The widest text a value of this field can show (what the field type and maxLength allow). */
function valueWidth(field: CompiledField | undefined, format: ColumnFormat, translate: Translate, locale: string, text: (t: string) => number): number {
  if (format === 'datetime' || (!format && field?.type === 'datetime')) return text('0000-00-00 00:00:00');
  if (format === 'date' || (!format && field?.type === 'date')) return text('0000-00-00');
  if (format === 'fileSize') return text('1023.9 KB');
  if (format === 'json') return MAX_TEXT_PX;
  if (field?.type === 'ref' && field.ref) {
    // shown by the referenced record's title (references.ts)
    const target = metadata.entities[field.ref];
    const title = target?.fields[target.titleField];
    if (title && title.type !== 'ref') return valueWidth(title, undefined, translate, locale, text);
  }
  if (field?.type === 'boolean') return Math.max(text(translate('ra.boolean.true', { _: 'Yes' })), text(translate('ra.boolean.false', { _: 'No' })));
  if (field?.type === 'code' && field.codeTable) {
    const table = metadata.codeTables[field.codeTable];
    return Math.max(0, ...(table?.values ?? []).map((v) => text(translate(codeLabelKey(table.name, v.code), { _: v.code }))));
  }
  if (field?.type === 'integer' || field?.type === 'ref' || field?.type === 'decimal' || format === 'money' || format === 'number') {
    const intDigits =
      field?.type === 'decimal'
        ? Math.max(1, (field.precision ?? 15) - (field.scale ?? 0))
        : String(Math.trunc(Math.max(Math.abs(field?.minimum ?? 0), Math.abs(field?.maximum ?? 999999)))).length;
    const scale = field?.type === 'decimal' ? (field.scale ?? 0) : 0;
    const negative = (field?.minimum ?? 0) < 0 ? '-' : '';
    const biggest = Number('9'.repeat(Math.min(intDigits, 15)));
    if (format === 'money') return text(negative + new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(biggest));
    return text(`${negative}${'9'.repeat(intDigits)}${scale ? `.${'9'.repeat(scale)}` : ''}`);
  }
  const maxLength = field?.maxLength ?? 20;
  if (field?.identifier) return (text(IDENTIFIER_CHARS) / IDENTIFIER_CHARS.length) * maxLength;
  return Math.min(MAX_TEXT_PX - CELL_EXTRA_PX, Math.max(MIN_TEXT_PX, (text(IDENTIFIER_CHARS) / IDENTIFIER_CHARS.length) * maxLength));
}

/**
 * A column's width (px) when the metadata gives none (table-layout is fixed): wide enough for its
 * header label (never cut off) and for the widest value the field can hold: a date, the longest
 * code label, the biggest number of its range, an identifier's maxLength characters. Free text
 * stops at 240 px (its cells show the rest in their title). Measured in the table's font.
 */
export function widthOf(
  field: CompiledField | undefined,
  format: ColumnFormat,
  label: string,
  translate: Translate = (k, o) => String(o?._ ?? k),
  locale = 'zh-CN',
): number {
  const header = textMeasurer(600)(label) + CELL_EXTRA_PX + (field?.sort ? SORT_MARK_PX : 0);
  const value = valueWidth(field, format, translate, locale, textMeasurer(400)) + CELL_EXTRA_PX;
  return Math.ceil(Math.max(header, value));
}
