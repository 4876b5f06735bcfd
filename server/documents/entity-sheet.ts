/**
 * Rows of an entity in a spreadsheet, both ways, driven by metadata only (no entity is named here):
 *  - `parseEntitySheet` maps the header row to the entity's creatable fields (by field label in any
 *    language, or by field name), turns cells into the JSON types the create schema expects, and
 *    validates every row with that very schema (the validator the API uses), so an imported row is
 *    accepted exactly when the same values typed into the form would be;
 *  - `entityTemplate` writes a workbook whose header row is those labels (the "download template").
 * Errors name the Excel row (1-based, the header is row 1 normally) and the field.
 */
import type { Catalogues, CompiledEntity, CompiledField, CompiledMetadata, Locale } from '../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../codegen/runtime/field-schema.ts';
import type { FieldErrors, SchemaValidator } from '../../codegen/runtime/validation.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Queryable } from '../db/types.ts';
import { columnName, excelSerialToDate, writeXlsx, type CellValue, type SheetData } from './xlsx.ts';

export interface RowError {
  row: number;
  field: string;
  key: string;
  args?: Record<string, string | number>;
}
export interface ImportRow {
  row: number;
  values: Record<string, unknown>;
}
export interface ParsedSheet {
  rows: ImportRow[];
  errors: RowError[];
}

export interface EntitySheetContext {
  meta: CompiledMetadata;
  entity: CompiledEntity;
  /** the entity's generated create schema (schemas[entity].create) */
  createSchema: JsonSchema;
  catalogues: Catalogues;
  validator: SchemaValidator;
}

/** The fields a row may set: those of the create schema, in the entity's field order. */
export function importFields(entity: CompiledEntity, createSchema: JsonSchema): CompiledField[] {
  const props = (createSchema.properties ?? {}) as Record<string, unknown>;
  return entity.fieldOrder.filter((n) => n in props).map((n) => entity.fields[n]);
}

/** Header text as compared: NFKC (full-width letters, brackets), no trailing required marker, case-blind. */
const normalize = (s: string): string =>
  s
    .normalize('NFKC')
    .replace(/[*＊]\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** header text -> field name, for every label of every language and the field names themselves. */
function headerMap(fields: CompiledField[], catalogues: Catalogues): Map<string, string> {
  const map = new Map<string, string>();
  const ambiguous = new Set<string>();
  const add = (text: string | undefined, field: string) => {
    if (!text) return;
    const k = normalize(text);
    if (map.has(k) && map.get(k) !== field) ambiguous.add(k);
    else map.set(k, field);
  };
  for (const f of fields) {
    add(f.name, f.name);
    for (const msgs of Object.values(catalogues)) add(msgs[f.labelKey], f.name);
  }
  // a label two fields share identifies neither: such a column must use the field name
  for (const k of ambiguous) if (!fields.some((f) => normalize(f.name) === k)) map.delete(k);
  return map;
}

/* ------------------------------------------------------------------ cell -> JSON value */

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
/** Excel keeps 15 significant digits; anything below is binary noise (0.1 + 0.2). */
const clean = (n: number): number => Number(n.toPrecision(15));

function toNumber(v: CellValue): unknown {
  if (typeof v === 'number') return clean(v);
  if (typeof v !== 'string') return v;
  let s = v.trim().replace(/^(\d{1,3}(,\d{3})+)(\.\d+)?$/, (m) => m.replace(/,/g, ''));
  const percent = s.endsWith('%');
  if (percent) s = s.slice(0, -1).trim();
  if (!NUMBER.test(s)) return v; // the schema reports it as "must be a number"
  return percent ? clean(Number(s) / 100) : Number(s);
}

function toDate(v: CellValue, date1904: boolean): unknown {
  if (typeof v === 'number') return excelSerialToDate(v, date1904) ?? v;
  if (typeof v !== 'string') return v;
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(v.trim());
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : v.trim();
}

function toDateTime(v: CellValue, date1904: boolean): unknown {
  if (typeof v !== 'number') return typeof v === 'string' ? v.trim() : v;
  const day = excelSerialToDate(v, date1904);
  if (!day) return v;
  const ms = Math.round((v - Math.floor(v)) * 86_400_000);
  return new Date(Date.parse(`${day}T00:00:00Z`) + ms).toISOString();
}

const TRUE = new Set(['true', '1', 'yes', 'y', '是']);
const FALSE = new Set(['false', '0', 'no', 'n', '否']);

function toValue(f: CompiledField, v: CellValue, ctx: EntitySheetContext, date1904: boolean): unknown {
  switch (f.type) {
    case 'string':
    case 'text':
      return typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(clean(v)) : v;
    case 'integer':
    case 'decimal':
    case 'ref':
      return toNumber(v);
    case 'date':
      return toDate(v, date1904);
    case 'datetime':
      return toDateTime(v, date1904);
    case 'boolean': {
      const s = String(v).trim().toLowerCase();
      return typeof v === 'boolean' ? v : TRUE.has(s) ? true : FALSE.has(s) ? false : v;
    }
    case 'code': {
      // a stored code, a code key or a label in any language
      const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v;
      const table = f.codeTable ? ctx.meta.codeTables[f.codeTable] : undefined;
      const hit = table?.values.find((c) => c.code === s || c.key === s || Object.values(c.label).includes(String(s)));
      return hit ? hit.code : s;
    }
    default:
      return v;
  }
}

/* ------------------------------------------------------------------ parsing */

const isBlank = (v: CellValue | undefined): boolean => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * Header mapping, conversion and schema validation of every data row. Pure: no database. Rows that
 * are empty are skipped; the first non-empty row is the header.
 */
export function parseEntitySheet(sheet: SheetData, ctx: EntitySheetContext): ParsedSheet {
  const fields = importFields(ctx.entity, ctx.createSchema);
  const errors: RowError[] = [];
  const [header, ...data] = sheet.rows;
  if (!header) return { rows: [], errors };

  // 1. header: every column names a field once; every required field has a column
  const byHeader = headerMap(fields, ctx.catalogues);
  const columns: (CompiledField | null)[] = [];
  const seen = new Set<string>();
  header.cells.forEach((cell, i) => {
    columns[i] = null;
    if (isBlank(cell)) return;
    const name = byHeader.get(normalize(String(cell)));
    // an unknown column is refused rather than ignored: a misspelt optional column would lose data
    if (!name) return void errors.push({ row: header.row, field: columnName(i), key: 'validation.unknownField' });
    if (seen.has(name)) return void errors.push({ row: header.row, field: name, key: 'validation.unique' });
    seen.add(name);
    columns[i] = ctx.entity.fields[name];
  });
  const required = ((ctx.createSchema.required ?? []) as string[]).filter((n) => !seen.has(n));
  for (const n of required) errors.push({ row: header.row, field: n, key: 'validation.required' });
  if (errors.length) return { rows: [], errors };

  // 2. rows: convert, then validate with the create schema
  const rows: ImportRow[] = [];
  for (const r of data) {
    const values: Record<string, unknown> = {};
    columns.forEach((f, i) => {
      const cell = r.cells[i];
      if (f && !isBlank(cell)) values[f.name] = toValue(f, cell ?? null, ctx, sheet.date1904);
    });
    const invalid: FieldErrors | null = ctx.validator.validate(ctx.createSchema, values);
    if (invalid) for (const [field, e] of Object.entries(invalid)) errors.push({ row: r.row, field, key: e.key, ...(e.args ? { args: e.args } : {}) });
    else rows.push({ row: r.row, values });
  }
  return { rows, errors };
}

/**
 * Rows that would break a unique index of the entity: repeated within the file, or already in the
 * table. Each offending row gets a 'validation.unique' error on the index's fields (as the form does).
 */
export async function uniqueErrors(db: Queryable, entity: CompiledEntity, rows: ImportRow[], fixed: Record<string, unknown> = {}): Promise<RowError[]> {
  const errors: RowError[] = [];
  for (const ix of entity.indexes.filter((i) => i.unique)) {
    const seen = new Set<string>();
    const sql = `SELECT 1 AS x FROM ${quote(entity.table)} WHERE ${ix.fields.map((n) => `${quote(entity.fields[n].column)} = ?`).join(' AND ')} LIMIT 1`;
    for (const r of rows) {
      const vals = ix.fields.map((n) => (n in r.values ? r.values[n] : fixed[n]));
      if (vals.some((v) => v === null || v === undefined)) continue; // NULLs never collide in SQL
      const key = JSON.stringify(vals);
      if (
        seen.has(key) ||
        (await db.get(
          sql,
          vals.map((v) => (typeof v === 'boolean' ? db.dialect.bool(v) : v)),
        ))
      ) {
        for (const n of ix.fields) if (n in r.values) errors.push({ row: r.row, field: n, key: 'validation.unique' });
      }
      seen.add(key);
    }
  }
  return errors;
}

/* ------------------------------------------------------------------ template */

/**
 * A workbook with the header row of the entity's importable fields (labels in `locale`) and
 * optionally some rows (values by field name). Text columns are formatted as Text in Excel so
 * that part codes keep their leading zeros when typed.
 */
export function entityTemplate(
  ctx: Pick<EntitySheetContext, 'entity' | 'createSchema' | 'catalogues'>,
  locale: Locale,
  rows: Record<string, CellValue>[] = [],
): Buffer {
  const fields = importFields(ctx.entity, ctx.createSchema);
  const labels = fields.map((f) => ctx.catalogues[locale]?.[f.labelKey] ?? f.name);
  return writeXlsx([
    {
      name: ctx.catalogues[locale]?.[ctx.entity.labelKey] ?? ctx.entity.name,
      header: true,
      columns: fields.map((f, i) => ({
        width: Math.max(
          12,
          [...labels[i]].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 2),
        ),
        text: f.type === 'string' || f.type === 'text',
      })),
      rows: [labels, ...rows.map((r) => fields.map((f) => r[f.name] ?? null))],
    },
  ]);
}
