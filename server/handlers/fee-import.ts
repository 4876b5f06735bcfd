/**
 * consultingFeeItem.import: internal staff upload an .xlsx of fee items. The file is read
 * (server/documents/xlsx.ts, within FEE_IMPORT_LIMITS), every row is validated with the generated
 * create schema (the API's own validator), and either every row is inserted as "to be confirmed"
 * or none is: any bad row fails the whole import with the errors of every row, as field errors
 * keyed `row<excel row>.<field>` (header problems are row 1, the header row). The rules of the
 * entity's validate hook (server/hooks/) apply to every row as they do to the form.
 *
 * Reading and validating touch no database and come first: `importFeeItems.prepare` does them
 * for an engine that calls it before opening the action's transaction (so that the write lock is
 * never held while a workbook is parsed); the handler itself uses what prepare produced for the
 * same upload, or parses then, before its first statement. A workbook that breaks a limit is
 * refused with 413 and the limit in the error's args ({ limit, max }).
 */
import type { CompiledMetadata, Locale } from '../../codegen/runtime/model.ts';
import { SchemaValidator } from '../../codegen/runtime/validation.ts';
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import { AppError, fileNameTooLong, fileTypeRefused } from '../engine/errors.ts';
import { translate } from '../engine/i18n.ts';
import type { CollectionHandler, FileResult, UploadedFile } from '../engine/handler-types.ts';
import { messages, schemas } from '../generated/index.ts';
import type { ConsultingFeeItemImportInput } from '../generated/types.ts';
import { ConsultingFeeItemState } from '../generated/types.ts';
import { entityTemplate, parseEntitySheet, uniqueErrors, type ParsedSheet, type RowError } from '../documents/entity-sheet.ts';
import { readFirstSheet, UPLOAD_LIMITS, XLSX_CONTENT_TYPE, XlsxError, type CellValue, type XlsxLimit, type XlsxLimits } from '../documents/xlsx.ts';

const ENTITY = 'consultingFeeItem';
/** Rows per import: keeps the one transaction (and its audit trail) short. */
export const MAX_IMPORT_ROWS = 5000;
/** Field errors sent back at most: enough to fix a file, not a megabyte of JSON. */
const MAX_REPORTED_ERRORS = 200;
/**
 * What a fee-item workbook may hold (server/documents/xlsx.ts UPLOAD_LIMITS, with the rows of one
 * import: MAX_IMPORT_ROWS data rows + the header). A workbook past any of them is refused while
 * it is read, before its rows are built.
 */
export const FEE_IMPORT_LIMITS: Readonly<XlsxLimits> = Object.freeze({
  ...UPLOAD_LIMITS,
  rows: MAX_IMPORT_ROWS + 1,
  cells: (MAX_IMPORT_ROWS + 1) * UPLOAD_LIMITS.columns,
});
/** Limits on bytes: 413 error.fileTooLarge; the others (counts, lengths, nesting) 413 error.payloadTooLarge. */
const BYTE_LIMITS = new Set<XlsxLimit>(['sheetBytes', 'sharedStringsBytes', 'partBytes', 'totalBytes']);

// ajv compiles a schema once per validator instance: keep one per metadata model
const validators = new WeakMap<CompiledMetadata, SchemaValidator>();
function validatorOf(meta: CompiledMetadata): SchemaValidator {
  let v = validators.get(meta);
  if (!v) validators.set(meta, (v = new SchemaValidator(meta)));
  return v;
}

const sheetContext = (meta: CompiledMetadata) => ({
  meta,
  entity: meta.entities[ENTITY],
  createSchema: schemas[ENTITY].create,
  catalogues: messages,
  validator: validatorOf(meta),
});

/** The upload rule (metadata/rules/common.json "importFile"): name length, size, xlsx content. */
function checkFile(meta: CompiledMetadata, file: UploadedFile | undefined): UploadedFile {
  if (!file || file.data.length === 0) throw new AppError(400, 'error.fileEmpty');
  const rule = meta.rules.importFile;
  if (rule?.maxNameLength && [...file.fileName].length > rule.maxNameLength) throw fileNameTooLong(rule);
  if (rule?.maxSizeKiB && file.data.length > rule.maxSizeKiB * 1024) throw new AppError(413, 'error.fileTooLarge', { max: rule.maxSizeKiB });
  return file;
}

/**
 * Reads and validates a fee-item workbook without touching the database (no uniqueness against
 * stored rows: that needs the transaction). Throws AppError 400 error.fileType for bytes that are
 * not an .xlsx workbook.
 */
export function parseFeeItemWorkbook(meta: CompiledMetadata, data: Uint8Array): ParsedSheet {
  let sheet;
  try {
    sheet = readFirstSheet(data, FEE_IMPORT_LIMITS);
  } catch (err) {
    if (err instanceof XlsxError) throw workbookRefused(meta, err);
    throw err;
  }
  if (sheet.rows.length - 1 > MAX_IMPORT_ROWS) throw new AppError(413, 'error.payloadTooLarge', { limit: 'rows', max: MAX_IMPORT_ROWS });
  return parseEntitySheet(sheet, sheetContext(meta));
}

/** The client's answer to a workbook the reader refused: 413 naming the limit it breaks, else 400 error.fileType. */
function workbookRefused(meta: CompiledMetadata, err: XlsxError): AppError {
  if (err.problem !== 'tooLarge' || !err.limit) return fileTypeRefused(meta.rules.importFile);
  // the row limit counts the header; the user counts data rows
  const args = err.limit === 'rows' ? { limit: 'rows', max: MAX_IMPORT_ROWS } : { limit: err.limit, max: err.max ?? 0 };
  // a byte limit is named in KB, as the upload limit is
  if (BYTE_LIMITS.has(err.limit)) return new AppError(413, 'error.fileTooLarge', { ...args, max: Math.ceil((err.max ?? 0) / 1024) });
  return new AppError(413, 'error.payloadTooLarge', args);
}

/**
 * The checked file and its parsed rows, per upload: computed once (prepare, before the
 * transaction; or the handler's first run), reused when the transaction runs the handler again
 * (PostgreSQL retries a transaction that lost a serialization race).
 */
const prepared = new WeakMap<UploadedFile, ParsedSheet>();
function prepareImport(meta: CompiledMetadata, file: UploadedFile | undefined): ParsedSheet {
  const cached = file && prepared.get(file);
  if (cached) return cached;
  const checked = checkFile(meta, file);
  const parsed = parseFeeItemWorkbook(meta, checked.data);
  prepared.set(checked, parsed);
  return parsed;
}

/** Row errors the message itself spells out (row, column, reason); all of them are field errors. */
export const MESSAGE_DETAILS = 5;

/**
 * The failure a client sees: code error.importFailed, the rows in the message and the first
 * MESSAGE_DETAILS errors spelled out with their column (the field's label, the template's header)
 * and reason in the caller's language; every error as a field error `row<n>.<field>`.
 */
export function importFailed(errors: RowError[], meta?: CompiledMetadata): AppError {
  const rows = [...new Set(errors.map((e) => e.row))].sort((a, b) => a - b);
  const fieldErrors: FieldErrors = {};
  for (const e of errors.slice(0, MAX_REPORTED_ERRORS)) {
    const k = `row${e.row}.${e.field}`;
    if (!(k in fieldErrors)) fieldErrors[k] = { key: e.key, ...(e.args ? { args: e.args } : {}) };
  }
  const shown = rows.slice(0, 20).join(', ') + (rows.length > 20 ? ', …' : '');
  const fields = meta?.entities[ENTITY]?.fields ?? {};
  const details = (locale: Locale) =>
    errors
      .slice(0, MESSAGE_DETAILS)
      .map((e) =>
        translate(locale, 'error.importRowError', {
          row: e.row,
          fieldLabel: fields[e.field]?.labelKey ?? e.field,
          reason: translate(locale, e.key, e.args ?? {}),
        }),
      )
      .join('; ') + (errors.length > MESSAGE_DETAILS ? '; …' : '');
  return new AppError(400, 'error.importFailed', { count: rows.length, rows: shown, details }, fieldErrors);
}

const importHandler: CollectionHandler<ConsultingFeeItemImportInput> = async (ctx) => {
  // no statement before this: the workbook is read and validated before any database work
  const parsed = prepareImport(ctx.meta, ctx.file);
  if (!parsed.rows.length && !parsed.errors.length) ctx.fail(400, 'error.noData');
  const errors = [...parsed.errors, ...(await uniqueErrors(ctx.db, ctx.meta.entities[ENTITY], parsed.rows))];
  const values = parsed.rows.map((r) => ({ ...r.values, state: ConsultingFeeItemState.toBeConfirmed, importer: ctx.principal.name, importedAt: ctx.now }));
  // the entity's rules across fields (its validate hook, e.g. urgent price >= ordinary price), row by row as the form gets them
  for (const [i, r] of parsed.rows.entries()) {
    const found = await ctx.validateRecord(ENTITY, 'create', null, values[i]);
    for (const [field, e] of Object.entries(found ?? {})) errors.push({ row: r.row, field, key: e.key, ...(e.args ? { args: e.args } : {}) });
  }
  if (errors.length)
    throw importFailed(
      errors.sort((a, b) => a.row - b.row),
      ctx.meta,
    );
  for (const v of values) await ctx.insert(ENTITY, v);
  return { imported: parsed.rows.length };
};

/**
 * The import handler, and its database-free first step for the engine to run before it opens the
 * transaction (`prepare`): file checks, reading and validating every row. Thrown AppErrors are
 * the same the handler would throw; the result is kept for the handler's run on the same upload.
 */
export const importFeeItems: CollectionHandler<ConsultingFeeItemImportInput> & {
  prepare(ctx: { meta: CompiledMetadata; file?: UploadedFile }): void;
} = Object.assign(importHandler, {
  prepare(ctx: { meta: CompiledMetadata; file?: UploadedFile }): void {
    prepareImport(ctx.meta, ctx.file);
  },
});

/** The "download template" file: the header row in the caller's language, plus optional rows. */
export function feeItemTemplate(meta: CompiledMetadata, locale: Locale, rows: Record<string, CellValue>[] = []): FileResult {
  return {
    fileName: locale === 'zh-CN' ? '咨询服务费导入模板.xlsx' : 'consulting-fee-items-template.xlsx',
    contentType: XLSX_CONTENT_TYPE,
    body: entityTemplate(sheetContext(meta), locale, rows),
  };
}
