/**
 * A list page's JSON written in JavaScript straight from the page statement's row arrays: how
 * PostgreSQL's list route answers (issue 21, point 5). SQLite builds the page's JSON itself
 * (list-json.ts); on PostgreSQL that costs the database more than it saves node (the shared
 * resource, docs/scaling-out.md), so node writes it, but without the detour the generic route took:
 * a record object per row, then the response schema's serialiser, whose string of many small
 * pieces had to be flattened before it could be measured and sent. On the million lines a 500-row
 * lean page costs node and database together 1.01-1.15x less this way, and serves 1.08-1.14x the
 * pages per second (docs/performance-wan.md, section 6).
 *
 * The text is byte for byte what the response schema's serialiser (fast-json-stringify) writes for
 * the records Engine.list returns: the schema's keys in its order (visible fields in field order,
 * then the people's names), only those the page selected, null for NULL, booleans from 0/1 or
 * true/false, numbers as JavaScript prints them, strings escaped as JSON.stringify escapes them.
 * tests/server/rows-json.test.ts compares the two on every list screen of the metadata.
 */
import type { CompiledEntity, CompiledField } from '../../codegen/runtime/model.ts';
import type { Engine } from './engine.ts';
import type { Principal } from './principal.ts';
import { JSON_TYPE, recordKeys } from './json-types.ts';
import { jsonPage } from './list-json.ts';

/** What JSON.stringify would escape in a string; one without it is written as it is, between quotes (fast-json-stringify's test). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const STR_ESCAPE = /[\u0000-\u001f\u0022\u005c\ud800-\udfff]/;

/**
 * The page is written into one growing buffer, reused from page to page (writing is synchronous),
 * and copied out at its exact length: UTF-8 bytes once, no string of many pieces to flatten, no
 * encoding again on the way to the socket.
 */
let scratch = Buffer.allocUnsafe(1 << 20);
let at = 0;

function room(bytes: number) {
  if (at + bytes <= scratch.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(scratch.length * 2, at + bytes));
  scratch.copy(bigger, 0, 0, at);
  scratch = bigger;
}
const ascii = (s: string) => {
  room(s.length);
  at += scratch.write(s, at, 'latin1');
};
const utf8 = (s: string) => {
  // a UTF-16 unit takes at most 3 bytes of UTF-8
  room(s.length * 3);
  at += scratch.write(s, at, 'utf8');
};
const bytes = (b: Buffer) => {
  room(b.length);
  at += b.copy(scratch, at);
};

type Write = (v: unknown) => void;

/** A value the driver gave in an unexpected type: JSON.stringify's reading of it (never throws on a row). */
const other: Write = (v) => utf8(JSON.stringify(v) ?? 'null');

const WRITE: Record<'string' | 'integer' | 'number' | 'boolean', Write> = {
  string: (v) => {
    if (v === null) return ascii('null');
    if (typeof v !== 'string') return other(v);
    if (v.length < 5000 && !STR_ESCAPE.test(v)) {
      room(v.length * 3 + 2);
      scratch[at++] = 0x22;
      at += scratch.write(v, at, 'utf8');
      scratch[at++] = 0x22;
    } else utf8(JSON.stringify(v));
  },
  integer: (v) => (v === null ? ascii('null') : Number.isInteger(v) ? ascii('' + (v as number)) : other(v)),
  // as fast-json-stringify's asNumber: infinities print null
  number: (v) => (v === null ? ascii('null') : typeof v === 'number' ? ascii(Number.isFinite(v) ? '' + v : 'null') : other(v)),
  boolean: (v) => ascii(v === null ? 'null' : v === true || v === 1 ? 'true' : 'false'),
};

const jsonTypeOf = (f: CompiledField | undefined) => (f ? JSON_TYPE[f.type] : 'string');

interface Part {
  index: number;
  /** `{"key":` for the first, `,"key":` after it */
  key: Buffer;
  write: Write;
}

const compiled = new WeakMap<CompiledEntity, Map<string, Part[]>>();

/** Per entity and column list (a page statement's columns): which column goes out where, and how. */
function partsOf(e: CompiledEntity, columns: readonly string[]): Part[] {
  let byColumns = compiled.get(e);
  if (!byColumns) compiled.set(e, (byColumns = new Map()));
  const sig = columns.join('\u0000');
  let parts = byColumns.get(sig);
  if (!parts) {
    // a column the schema does not name (none should be selected) never goes out, as with the schema's additionalProperties: false
    parts = recordKeys(e)
      .filter((k) => columns.includes(k.key))
      .map((k, i) => ({ index: columns.indexOf(k.key), key: Buffer.from(`${i ? ',' : '{'}${JSON.stringify(k.key)}:`), write: WRITE[jsonTypeOf(k.field)] }));
    byColumns.set(sig, parts);
  }
  return parts;
}

/** The JSON array of the rows, each an object of the schema's keys the columns hold, as UTF-8. */
export function rowsJson(e: CompiledEntity, columns: readonly string[], rows: readonly unknown[][]): Buffer {
  const parts = partsOf(e, columns);
  at = 0;
  ascii('[');
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (r) ascii(',');
    if (!parts.length) ascii('{');
    for (const p of parts) {
      bytes(p.key);
      p.write(row[p.index]);
    }
    ascii('}');
  }
  ascii(']');
  return Buffer.from(scratch.subarray(0, at));
}

/** Engine.list's page as JSON written from row arrays. */
export const listRowsJson = (engine: Engine, p: Principal | null, e: CompiledEntity, query: Record<string, unknown>, fields?: readonly string[]) =>
  jsonPage(engine, p, e, query, fields, async (st) => {
    const { columns, rows } = await engine.db.rows(st.page.sql, st.page.params);
    return { body: rowsJson(e, columns, rows), count: rows.length };
  });
