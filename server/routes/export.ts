/**
 * GET /api/<resource>/export?screen=<screen>&filter=<json>&sort=<json>[&tab=<key>][&tz=<IANA zone>]
 * for every resource: the rows a list screen shows, as a streamed .xlsx.
 *
 * - The screen must exist, belong to the resource and offer the "export" button (404 / 403); the
 *   caller must be allowed to open it (screen roles, claim warehouse) and hold the export grant
 *   (which follows read unless declared): the engine's scope rules, as for the list.
 * - `filter` and `sort` are the list protocol's (same checks and 400 codes); the screen's
 *   fixedFilter and, with `tab`, that tab's filter are always applied on top. A screen with
 *   requireFilter needs a search condition of the caller's (400 error.searchConditionRequired),
 *   as its search button does. Soft-deleted rows only with filter includeDeleted.
 * - At most `maxRows` rows (default MAX_EXPORT_ROWS): a larger result is refused before anything
 *   is streamed (400 error.rangeTooLarge { max }); narrow the filter. At most
 *   MAX_CONCURRENT_EXPORTS exports run at once (429 error.rateLimited beyond).
 * - Columns: the screen's columns in order; the header row is their labels in the caller's
 *   language; code values as their labels, booleans as export.yes / export.no, dates as text
 *   yyyy-MM-dd and date-times yyyy-MM-dd HH:mm:ss in `tz` (default: the server's time zone),
 *   numbers as numeric cells, references as the referenced record's title (its titleField, read
 *   under the caller's scope), everything else as (inline) text.
 *
 * The query runs on a connection of its own (db.readSnapshot) in one read-only transaction (a
 * consistent snapshot), `chunkRows` rows at a time; between chunks the event loop runs and the
 * writer's back-pressure is honoured, so memory stays bounded whatever the row count and a slow
 * client slows the export down rather than filling the memory. A client that disconnects stops it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Cursor } from '../db/types.ts';
import type { CompiledColumn, CompiledEntity, CompiledField, CompiledScreen, Locale } from '../../codegen/runtime/model.ts';
import { codeLabelKey } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import type { Engine } from '../engine/engine.ts';
import { screenRefusal } from '../engine/access.ts';
import { AppError, badRequest, forbidden, notFound } from '../engine/errors.ts';
import { translate } from '../engine/i18n.ts';
import { XlsxStreamWriter, XLSX_MAX_ROWS, type CellValue, type StreamColumn } from '../documents/xlsx-stream.ts';
import { XLSX_CONTENT_TYPE } from '../documents/xlsx.ts';
import { contentDisposition } from './resources.ts';

/** The most rows one export may hold (Excel's sheet limit is 1,048,576 including the header). */
export const MAX_EXPORT_ROWS = 1_000_000;
/** Rows read and written between two turns of the event loop. */
export const EXPORT_CHUNK_ROWS = 1000;

export interface ExportRouteOptions {
  engine: Engine;
  maxRows?: number;
  chunkRows?: number;
}

type Rec = Record<string, unknown>;

const exportQuery = {
  type: 'object',
  properties: {
    screen: { type: 'string', maxLength: 100 },
    filter: { type: 'string', maxLength: 20000 },
    sort: { type: 'string', maxLength: 200 },
    tab: { type: 'string', maxLength: 100 },
    tz: { type: 'string', maxLength: 64 },
  },
};
const errorResponse = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    errorArgs: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
    errorId: { type: 'string' },
  },
};
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };

/* ------------------------------------------------------------------ dates */

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A stored instant -> the wall-clock time in `tz` (or the server's zone), as a Date read with getUTC*. */
export function wallClock(tz: string | undefined): (ms: number) => Date {
  if (!tz) return (ms) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  // the zone's offset only changes on quarter-hour boundaries: one Intl call per quarter hour seen
  const offsets = new Map<number, number>();
  return (ms) => {
    const q = Math.floor(ms / 900_000);
    let off = offsets.get(q);
    if (off === undefined) {
      const at = q * 900_000;
      const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, x.value]));
      off = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - at;
      if (offsets.size > 50_000) offsets.clear();
      offsets.set(q, off);
    }
    return new Date(ms + off);
  };
}

const ymd = (d: Date): string => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const hms = (d: Date): string => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/* ------------------------------------------------------------------ cells */

type Convert = (v: unknown) => CellValue;

/** How one column's stored value becomes a cell, and how the column looks. */
export function columnConverter(f: CompiledField, c: CompiledColumn, locale: Locale, wall: (ms: number) => Date): { convert: Convert; column: StreamColumn } {
  const label = translate(locale, c.labelKey);
  const labelWidth = [...label].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0) + 2;
  const width = (w: number) => Math.min(60, Math.max(w, labelWidth));
  const format = c.format ?? (f.type === 'date' ? 'date' : f.type === 'datetime' ? 'datetime' : undefined);
  if (format === 'date' || format === 'datetime') {
    const withTime = format === 'datetime';
    return {
      column: { width: width(withTime ? 20 : 12), style: 'text' },
      convert: (v) => {
        if (v === null || v === undefined || v === '') return null;
        const s = String(v);
        if (PLAIN_DATE.test(s)) return s;
        const ms = Date.parse(s);
        if (Number.isNaN(ms)) return s;
        const d = wall(ms);
        return withTime ? `${ymd(d)} ${hms(d)}` : ymd(d);
      },
    };
  }
  if (f.type === 'code' && f.codeTable) {
    const table = metadata.codeTables[f.codeTable];
    const labels = new Map<string, string>((table?.values ?? []).map((x) => [x.code, translate(locale, codeLabelKey(table.name, x.code))]));
    const longest = Math.max(0, ...[...labels.values()].map((l) => [...l].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0)));
    return {
      column: { width: width(Math.max(10, longest + 2)), style: 'text' },
      convert: (v) => (v === null || v === undefined ? null : (labels.get(String(v)) ?? String(v))),
    };
  }
  if (f.type === 'boolean') {
    const yes = translate(locale, 'export.yes');
    const no = translate(locale, 'export.no');
    return { column: { width: width(8) }, convert: (v) => (v === null || v === undefined ? null : v === 1 || v === true || v === '1' ? yes : no) };
  }
  // a reference arrives as the referenced record's title (Engine.exportQuery)
  if (f.type === 'ref') return { column: { width: width(16), style: 'text' }, convert: (v) => (v === null || v === undefined ? null : String(v)) };
  if (f.type === 'integer' || f.type === 'decimal' || format === 'money' || format === 'number' || format === 'fileSize') {
    const style = format === 'money' ? 'money' : f.type === 'decimal' ? 'general' : 'integer';
    return {
      column: { width: width(12), style },
      convert: (v) => {
        if (v === null || v === undefined || v === '') return null;
        if (typeof v === 'number') return v;
        const n = Number(v);
        return Number.isFinite(n) ? n : String(v);
      },
    };
  }
  const w = f.maxLength && f.maxLength >= 200 ? 40 : f.maxLength && f.maxLength >= 100 ? 30 : 16;
  return { column: { width: width(w), style: 'text' }, convert: (v) => (v === null || v === undefined ? null : typeof v === 'string' ? v : String(v)) };
}

/* ------------------------------------------------------------------ the route */

/** Does the caller's filter hold a search condition of its own (not the screen's fixed ones, not includeDeleted)? */
function hasCondition(filterRaw: unknown, fixed: Rec): boolean {
  if (typeof filterRaw !== 'string' || !filterRaw) return false;
  const filter = JSON.parse(filterRaw) as Rec; // already checked by the engine
  if (!filter || typeof filter !== 'object') return false;
  return Object.entries(filter).some(([k, v]) => {
    if (k === 'includeDeleted' || v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0)) return false;
    return !(k in fixed) || JSON.stringify(fixed[k]) !== JSON.stringify(v);
  });
}

function screenFor(e: CompiledEntity, name: unknown, req: FastifyRequest): CompiledScreen {
  // the screen says which columns, filters and rights: without it there is nothing to export, and the answer names what is missing
  if (name === undefined || name === '') throw badRequest('error.missingParameter', { param: 'screen' });
  if (typeof name !== 'string') throw badRequest('error.malformedQuery', { param: 'screen' });
  const screen = metadata.screens.find((s) => s.name === name && s.resource === e.resource);
  if (!screen || !screen.columns.length) throw notFound();
  if (!screen.buttons.includes('export')) throw forbidden();
  const refusal = screenRefusal(screen, req.principal!, e);
  if (refusal) throw forbidden(refusal);
  return screen;
}

export default async function exportRoutes(app: FastifyInstance, opts: ExportRouteOptions) {
  const { engine } = opts;
  const maxRows = Math.min(opts.maxRows ?? MAX_EXPORT_ROWS, XLSX_MAX_ROWS - 1);
  const chunkRows = opts.chunkRows ?? EXPORT_CHUNK_ROWS;

  for (const e of Object.values(metadata.entities)) {
    // a static segment: find-my-way prefers it to the parametric GET /api/<resource>/:id
    app.get(
      `/api/${e.resource}/export`,
      { exposeHeadRoute: false, preHandler: app.authenticate(), schema: { tags: [e.resource], querystring: exportQuery, response: errors } },
      async (req, reply) => {
        const q = req.query as Record<string, string | undefined>;
        const p = req.principal!;
        const locale = req.locale;
        const screen = screenFor(e, q.screen, req);
        let tab: CompiledScreen['tabs'][number] | undefined;
        if (q.tab !== undefined && q.tab !== '') {
          tab = screen.tabs.find((t) => t.key === q.tab) ?? (/^\d{1,3}$/.test(q.tab) ? screen.tabs[Number(q.tab)] : undefined);
          if (!tab) throw badRequest('error.malformedQuery', { param: 'tab' });
        }
        if (q.tz !== undefined && q.tz !== '' && !validTimeZone(q.tz)) throw badRequest('error.malformedQuery', { param: 'tz' });
        const tz = q.tz || undefined;
        const fixed: Rec = { ...screen.fixedFilter, ...(tab?.filter ?? {}) };
        const columns = screen.columns.filter((c) => e.fields[c.field] && !e.fields[c.field].private);
        const { sql, countSql, params, countParams } = engine.exportQuery(
          p,
          e,
          q,
          columns.map((c) => c.field),
          fixed,
          screen.defaultSort,
        );
        if (screen.requireFilter && !hasCondition(q.filter, fixed)) throw badRequest('error.searchConditionRequired');

        const wall = wallClock(tz);
        const conv = columns.map((c) => columnConverter(e.fields[c.field], c, locale, wall));
        const title = translate(locale, screen.titleKey);
        const now = wall(Date.now());
        const fileName = `${title}-${ymd(now).replace(/-/g, '')}-${hms(now).replace(/:/g, '')}.xlsx`;

        const writer = new XlsxStreamWriter({
          sheetName: title,
          header: columns.map((c) => translate(locale, c.labelKey)),
          columns: conv.map((c) => c.column),
        });
        const converters = conv.map((c) => c.convert);
        const started = performance.now();

        /** Moves rows from the cursor into the workbook, `chunkRows` at a time, waiting for the client between chunks. */
        const pump = async (cursor: Cursor) => {
          try {
            const cells: CellValue[] = new Array(converters.length);
            while (!writer.aborted) {
              const rows = await cursor.read(chunkRows);
              for (const row of rows) {
                for (let i = 0; i < converters.length; i++) cells[i] = converters[i](row[i]);
                writer.addRow(cells);
                if (writer.wantsFlush) writer.flush();
              }
              if (rows.length < chunkRows) break;
              writer.flush();
              await writer.ready();
            }
            if (!writer.aborted) writer.end();
          } catch (err) {
            req.log.error({ err, resource: e.resource, screen: screen.name }, 'export failed');
            // nothing sent yet: the error handler answers a JSON 500 (not under the xlsx content type)
            if (!reply.raw.headersSent) reply.removeHeader('content-type').removeHeader('content-disposition');
            writer.abort(err as Error);
          } finally {
            req.log.info(
              {
                event: 'export',
                resource: e.resource,
                screen: screen.name,
                userId: p.userId,
                rows: writer.rowCount,
                ms: Math.round(performance.now() - started),
                aborted: writer.aborted,
              },
              'export',
            );
          }
        };

        // One read snapshot (its own connection) for the count and the rows; it stays open while the
        // reply streams out and is given back when the last row is written or the client goes away.
        let begin!: () => void;
        const begun = new Promise<'begun'>((resolve) => (begin = () => resolve('begun')));
        const job = engine.db.readSnapshot(async (snap) => {
          const total = Number((await snap.get<{ n: number }>(countSql, countParams))!.n);
          if (total > maxRows) throw badRequest('error.rangeTooLarge', { max: maxRows });
          const cursor = await snap.cursor(sql, params);
          try {
            begin();
            await pump(cursor);
          } finally {
            await cursor.close();
          }
          return true;
        });
        const first = await Promise.race([begun, job]);
        if (first === null) throw new AppError(429, 'error.rateLimited');
        job.catch((err) => req.log.error({ err }, 'export snapshot failed'));
        // a client that goes away before the end stops the work
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) writer.abort();
        });
        reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', contentDisposition(fileName))
          .header('cache-control', 'no-store')
          .send(writer.stream);
        return reply;
      },
    );
  }
}
