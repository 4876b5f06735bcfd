/**
 * The bench's baselines, registered beside the generic routes in the bench server:
 *
 *  - GET /bench/orders: a hand-written Fastify route for the one list query the bench measures
 *    (a supplier's orders in its warehouse, one status, sorted by order number, a 500-row page and
 *    the total). It does what a careful hand-written route would: two prepared statements with the
 *    same SQL as the generic engine's (page, then the bounded count only when the page is full),
 *    the same authentication preHandler and the same response schema (so the same serialiser). What
 *    it leaves out is exactly the generic layer: parsing and checking the list protocol against
 *    metadata, building SQL, the statement cache lookup and the record conversion.
 *  - rawList(): the floor, with no HTTP at all: the same two statements and JSON.stringify.
 *  - GET /bench/hello: the framework's own floor.
 *  - GET /bench/db-json/<resource> (every resource, both backends): the generic route with the
 *    page's JSON built by the database (server/engine/list-json.ts) and sent as is: same protocol,
 *    checks, scope, SQL page and bounded count, and a lean page's projection (`?screen=`); no row
 *    objects, no serialiser. On SQLite this is what the generic route serves.
 *  - GET /bench/records/<resource>: the generic route as PostgreSQL served it before
 *    server/engine/rows-json.ts: Engine.list's records through the response schema's serialiser.
 *  - rawSqlList(): the floor over the data layer (PostgreSQL): the engine's own statements, rows to
 *    objects and JSON.stringify.
 *
 * The bench checks before measuring that /bench/orders and the generic route answer byte for byte
 * the same (body and Content-Range), so the three variants do the same work.
 */
import type { FastifyInstance } from 'fastify';
import type { Statement } from 'better-sqlite3';
import type Database from 'better-sqlite3';

/** a better-sqlite3 connection (the bench reads and explains on SQLite directly) */
type DB = Database.Database;
import { metadata } from '../../server/generated/index.ts';
import { responseSchema } from '../../server/routes/resources.ts';
import { selectList } from '../../server/engine/records.ts';
import { personNameColumns } from '../../server/engine/person-names.ts';
import { COUNT_LOOKAHEAD, contentRange } from '../../server/engine/query.ts';
import { jsonContentRange, listJson } from '../../server/engine/list-json.ts';
import { leanFields } from '../../server/routes/lean-list.ts';
import type { Engine } from '../../server/engine/engine.ts';
import type { Db } from '../../server/db/types.ts';
import type { SqlPart } from '../../server/engine/access.ts';

const order = metadata.entities.order;

/** scope (any of the three supplier codes, and the warehouse), one status, sorted by order number */
const WHERE = `WHERE ((a."direct_supplier_code" = ? OR a."production_supplier_code" = ? OR a."purchasing_supplier_code" = ?) AND a."warehouse_code" = ?) AND (a."status" = ?)`;
// the names beside user IDs as the engine selects them (person-names.ts): the same bytes out
export const HAND_PAGE_SQL = `SELECT ${selectList(order)}${personNameColumns(order)} FROM "order" a ${WHERE} ORDER BY a."order_no" ASC, a."id" ASC LIMIT ? OFFSET ?`;
export const HAND_COUNT_SQL = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM "order" a ${WHERE} LIMIT ?)`;

export interface HandQuery {
  supplier: string;
  warehouse: string;
  status: string;
  start: number;
  end: number;
}
export interface HandResult {
  rows: unknown[];
  total: number;
  lowerBound: boolean;
  start: number;
}

export class HandList {
  private readonly page: Statement<unknown[], unknown[]>;
  private readonly count: Statement<unknown[], unknown>;
  private readonly columns: string[];
  private readonly objects?: Statement<unknown[], unknown>;
  /** `objects`: rows as better-sqlite3 builds them (what the engine did before), for comparison */
  constructor(db: DB, opts: { objects?: boolean } = {}) {
    if (opts.objects) this.objects = db.prepare(HAND_PAGE_SQL);
    // rows as arrays copied into objects, as the engine does (see pageRows in server/engine/engine.ts):
    // the baselines use the same row technique, so the ratios measure the generic layer alone
    this.page = db.prepare<unknown[], unknown[]>(HAND_PAGE_SQL).raw(true);
    this.columns = this.page.columns().map((c) => c.name);
    this.count = db.prepare(HAND_COUNT_SQL);
  }

  private rows(params: unknown[]): Record<string, unknown>[] {
    if (this.objects) return this.objects.all(...params) as Record<string, unknown>[];
    const cols = this.columns;
    return this.page.all(...params).map((a) => {
      const r: Record<string, unknown> = {};
      for (let i = 0; i < cols.length; i++) r[cols[i]] = a[i];
      return r;
    });
  }

  run(q: HandQuery): HandResult {
    const size = q.end - q.start + 1;
    const scope = [q.supplier, q.supplier, q.supplier, q.warehouse, q.status];
    const rows = this.rows([...scope, size, q.start]);
    if (rows.length > 0 && rows.length < size) return { rows, total: q.start + rows.length, lowerBound: false, start: q.start };
    if (rows.length === 0 && q.start === 0) return { rows, total: 0, lowerBound: false, start: q.start };
    const cap = q.start + COUNT_LOOKAHEAD;
    const n = (this.count.get(...scope, cap + 1) as { n: number }).n;
    return { rows, total: Math.min(n, cap), lowerBound: n > cap, start: q.start };
  }
}

export function contentRangeOf(r: HandResult): string {
  const total = `${r.total}${r.lowerBound ? '+' : ''}`;
  return r.rows.length ? `orders ${r.start}-${r.start + r.rows.length - 1}/${total}` : `orders */${total}`;
}

/** The floor: the same statements and JSON.stringify, nothing else. Returns the JSON length. */
export function rawList(hand: HandList, q: HandQuery): number {
  return JSON.stringify(hand.run(q).rows).length;
}

const listQuery = {
  type: 'object',
  properties: {
    sort: { type: 'string', maxLength: 200 },
    range: { type: 'string', maxLength: 100 },
    filter: { type: 'string', maxLength: 20000 },
    screen: { type: 'string', maxLength: 100 },
  },
};

export async function baselineRoutes(app: FastifyInstance, opts: { db: DB }): Promise<void> {
  const hand = new HandList(opts.db);
  app.get('/bench/hello', async () => ({ hello: 'world' }));
  app.get(
    '/bench/orders',
    { preHandler: app.authenticate(), schema: { querystring: listQuery, response: { 200: { type: 'array', items: responseSchema(order) } } } },
    async (req, reply) => {
      const p = req.principal!;
      const q = req.query as { filter?: string; range?: string };
      // this route serves one query shape: the status filter and a range; anything else is the generic route's job
      const status = String((JSON.parse(q.filter ?? '{}') as { status?: string }).status ?? '');
      const [start, end] = JSON.parse(q.range ?? '[0,499]') as [number, number];
      const r = hand.run({ supplier: p.supplierCode ?? '\u0000', warehouse: p.warehouse, status, start, end: Math.min(end, start + 499) });
      reply.header('content-range', contentRangeOf(r));
      return r.rows;
    },
  );
}

/** The generic list route with the JSON built by the database, for every resource (bench only). */
export async function dbJsonRoutes(app: FastifyInstance, opts: { engine: Engine }): Promise<void> {
  for (const e of Object.values(metadata.entities)) {
    const readAuth = e.public ? app.optionalAuth : app.authenticate();
    app.get(`/bench/db-json/${e.resource}`, { preHandler: readAuth, schema: { querystring: listQuery } }, async (req, reply) => {
      // a lean page (?screen=) as the generic route makes it: the screen's projection
      const { screen, ...query } = req.query as Record<string, unknown>;
      const r = await listJson(opts.engine, req.principal, e, query, leanFields(e, screen, req.principal));
      // the generic route's headers (its /api/ hook adds cache-control): the same bytes on the wire
      reply
        .header('content-range', jsonContentRange(e.resource, r))
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-store');
      // a string with a JSON content type goes out as it is (Fastify serialises only objects)
      return r.body;
    });
  }
}

/**
 * The generic list route as it answered PostgreSQL before rows-json.ts (bench only): Engine.list's
 * records through the response schema's serialiser, with the lean page's projection (`?screen=`).
 */
export async function recordsRoutes(app: FastifyInstance, opts: { engine: Engine }): Promise<void> {
  for (const e of Object.values(metadata.entities)) {
    const readAuth = e.public ? app.optionalAuth : app.authenticate();
    app.get(
      `/bench/records/${e.resource}`,
      { preHandler: readAuth, schema: { querystring: listQuery, response: { 200: { type: 'array', items: responseSchema(e) } } } },
      async (req, reply) => {
        const { screen, ...query } = req.query as Record<string, unknown>;
        const r = await opts.engine.list(req.principal, e, query, 'read', undefined, leanFields(e, screen, req.principal));
        reply.header('content-range', contentRange(e.resource, r)).header('cache-control', 'no-store');
        return r.records;
      },
    );
  }
}

export interface SqlListQuery {
  page: SqlPart;
  count: SqlPart;
  size: number;
}

/** The floor over the data layer: the page as arrays, copied into objects, JSON.stringify, and the bounded count when the page is full. */
export async function rawSqlList(db: Db, q: SqlListQuery): Promise<number> {
  const { columns, rows } = await db.rows(q.page.sql, q.page.params);
  const n = columns.length;
  const records = rows.map((a) => {
    const r: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) r[columns[i]] = a[i];
    return r;
  });
  if (records.length === q.size) await db.get(q.count.sql, q.count.params);
  return JSON.stringify(records).length;
}
