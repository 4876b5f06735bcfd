/**
 * Declared ranges of numeric fields (hardening round two, point 9). Every integer field, of an
 * entity or of an action's input, declares `minimum` and `maximum` (safe integers: a larger number
 * loses precision in JavaScript and JSON); every decimal declares `precision` and `scale`, from which
 * its range follows, and may narrow it with `minimum` / `maximum`. The generated JSON Schemas (server
 * and forms) and the tables' CHECK constraints follow the range. The engine's own columns (id,
 * version, ...) are compiled separately and declare none.
 */
import { decimalLimit, MAX_DECIMAL_PRECISION, MAX_SAFE_INTEGER, numericRange } from './runtime/field-schema.ts';

/** The part of a field definition (metadata) the range checks read. */
export interface NumericFieldDef {
  type: string;
  minimum?: number;
  maximum?: number;
  precision?: number;
  scale?: number;
  default?: unknown;
}

type Report = (file: string, pointer: string, detail: string) => void;

/** Decimal places of a number as JSON writes it (1e-7 has 7). */
function decimals(n: number): number {
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]) + (s.split('e-')[0].split('.')[1]?.length ?? 0);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/**
 * Checks the declared range of one field. `pointer` is the field's JSON pointer, `what` names it in
 * the message ("integer field \"qty\"", "integer input \"shipQty\" of action \"ship\"").
 */
export function checkNumericRange(file: string, pointer: string, what: string, f: NumericFieldDef, err: Report): void {
  const has = (k: 'minimum' | 'maximum' | 'precision' | 'scale') => f[k] !== undefined;
  if (f.type !== 'integer' && f.type !== 'decimal') {
    for (const k of ['minimum', 'maximum'] as const)
      if (has(k)) err(file, `${pointer}/${k}`, `${k} only applies to integer and decimal fields, not to ${f.type}`);
    for (const k of ['precision', 'scale'] as const) if (has(k)) err(file, `${pointer}/${k}`, `${k} only applies to decimal fields, not to ${f.type}`);
    return;
  }
  const label = `${f.type} ${what}`;
  if (f.type === 'integer') {
    for (const k of ['precision', 'scale'] as const)
      if (has(k)) err(file, `${pointer}/${k}`, `${k} only applies to decimal fields; an integer field's range is its minimum and maximum`);
    const missing = (['minimum', 'maximum'] as const).filter((k) => !has(k));
    if (missing.length) {
      err(
        file,
        pointer,
        `${label} declares no ${missing.map((k) => `"${k}"`).join(' and ')}: expected both, whole numbers from -${MAX_SAFE_INTEGER} to ${MAX_SAFE_INTEGER} (2^53-1); validation, the forms and the database follow them`,
      );
    }
    let ok = true;
    for (const k of ['minimum', 'maximum'] as const) {
      const v = f[k];
      if (v === undefined) continue;
      if (!Number.isInteger(v)) {
        err(file, `${pointer}/${k}`, `${k} ${v} of ${label} is not a whole number: expected an integer`);
        ok = false;
      } else if (!Number.isSafeInteger(v)) {
        err(
          file,
          `${pointer}/${k}`,
          `${k} ${v} of ${label} is not a safe integer: expected ${k === 'maximum' ? `at most ${MAX_SAFE_INTEGER}` : `at least -${MAX_SAFE_INTEGER}`} (2^53-1; a larger number loses precision in JavaScript and JSON)`,
        );
        ok = false;
      }
    }
    if (ok && f.minimum !== undefined && f.maximum !== undefined && f.minimum > f.maximum)
      err(file, `${pointer}/minimum`, `minimum ${f.minimum} of ${label} is greater than its maximum ${f.maximum}: expected minimum <= maximum`);
  } else {
    const missing = (['precision', 'scale'] as const).filter((k) => !has(k));
    if (missing.length) {
      err(
        file,
        pointer,
        `${label} declares no ${missing.map((k) => `"${k}"`).join(' and ')}: expected both (total digits and digits after the point, at most ${MAX_DECIMAL_PRECISION} digits); its range follows from them, e.g. precision 14 and scale 2 hold ±${decimalLimit(14, 2)}`,
      );
      return;
    }
    const p = f.precision!;
    const s = f.scale!;
    if (p > MAX_DECIMAL_PRECISION)
      err(
        file,
        `${pointer}/precision`,
        `precision ${p} of ${label} is more digits than a JavaScript number keeps exactly: expected at most ${MAX_DECIMAL_PRECISION}`,
      );
    if (s > p) {
      err(file, `${pointer}/scale`, `scale ${s} of ${label} is more than its precision ${p}: expected at most ${p}`);
      return;
    }
    const limit = decimalLimit(p, s);
    let ok = true;
    for (const k of ['minimum', 'maximum'] as const) {
      const v = f[k];
      if (v === undefined) continue;
      if (Math.abs(v) > limit) {
        err(file, `${pointer}/${k}`, `${k} ${v} of ${label} does not fit precision ${p}, scale ${s}: expected a value from -${limit} to ${limit}`);
        ok = false;
      } else if (decimals(v) > s) {
        err(file, `${pointer}/${k}`, `${k} ${v} of ${label} has more decimals than its scale ${s}`);
        ok = false;
      }
    }
    if (ok && f.minimum !== undefined && f.maximum !== undefined && f.minimum > f.maximum)
      err(file, `${pointer}/minimum`, `minimum ${f.minimum} of ${label} is greater than its maximum ${f.maximum}: expected minimum <= maximum`);
  }
  const range = numericRange(f);
  if (range && typeof f.default === 'number' && (f.default < range.min || f.default > range.max))
    err(file, `${pointer}/default`, `default ${f.default} of ${label} is outside its range: expected a value from ${range.min} to ${range.max}`);
}

/**
 * An action input written to the entity field of the same name must fit that field's range, or an
 * accepted input could be refused by the database (a 500 instead of a 400).
 */
export function checkInputWithinField(
  file: string,
  pointer: string,
  input: NumericFieldDef,
  field: NumericFieldDef,
  names: { input: string; action: string },
  err: Report,
): void {
  const a = numericRange(input);
  const b = numericRange(field);
  if (!a || !b) return;
  if (a.min < b.min || a.max > b.max)
    err(
      file,
      pointer,
      `input "${names.input}" of action "${names.action}" (range ${a.min} to ${a.max}) is written to the field "${names.input}", whose range is ${b.min} to ${b.max}: expected the input's range to lie within the field's`,
    );
}

/**
 * A file entity's fileSize must hold every upload its file rule accepts (maxSizeKiB × 1024 bytes),
 * or an accepted upload would be refused by the database.
 */
export function checkFileSize(file: string, field: NumericFieldDef | undefined, rule: { name: string; maxSizeKiB?: number }, err: Report): void {
  if (!field || field.type !== 'integer' || field.maximum === undefined || rule.maxSizeKiB === undefined) return;
  const bytes = rule.maxSizeKiB * 1024;
  if (field.maximum < bytes)
    err(
      file,
      '/fields/fileSize/maximum',
      `maximum ${field.maximum} of fileSize is below the upload limit of rule "${rule.name}" (${rule.maxSizeKiB} KiB): expected at least ${bytes} bytes`,
    );
}
