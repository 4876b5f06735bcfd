/**
 * The charts' sums on a large database file, without changing it (run by itself):
 *   npx tsx tests/bench/chart-sums.ts --db data/bench/portal-1667.db [--supplier S001] [--warehouse PDC01]
 * Opens the file read-only, builds each summed chart's sums from its rows into a TEMP table (the
 * statement the server's build runs: server/home/chart-sums-build.ts), then reads the supplier's
 * chart both ways in the same run: from the rows (the list's aggregate, charts.ts chartStatement)
 * and from its key of the sums (chart-sums-read.ts sumsStatement). Prints the build time and size,
 * the rows each way reads, both medians and whether the answers are the same. The statements are
 * built by an engine over an empty temporary database (the same SQL as on the file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildApp } from '../../server/app.ts';
import { metadata } from '../../server/generated/index.ts';
import { chartStatement } from '../../server/home/charts.ts';
import { allSummedCharts, sumsFromRowsSql } from '../../server/home/chart-sums-build.ts';
import { sumsScope, sumsStatement } from '../../server/home/chart-sums-read.ts';
import { principalOf } from './list-cases.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'data/bench/portal-1667.db' },
    supplier: { type: 'string', default: 'S001' },
    warehouse: { type: 'string', default: 'PDC01' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'chart-sums-bench-'));
const app = await buildApp({ dbFile: join(dir, 'statements.db'), jwtSecret: 'bench-secret-0123456789-0123456789-0123456789', logger: false });
const db = new Database(values.db!, { readonly: true, fileMustExist: true });
// the sums in TEMP tables: a read-only connection may write those, and the file stays as it was
db.exec(
  `CREATE TEMP TABLE _chart_sums (id INTEGER PRIMARY KEY, chart TEXT NOT NULL, warehouse TEXT NOT NULL, supplier TEXT NOT NULL, bucket TEXT NOT NULL, n INTEGER NOT NULL, total REAL NOT NULL)`,
);
db.exec(`CREATE INDEX temp.ix_chart_sums_key ON _chart_sums (chart, warehouse, supplier, bucket, n, total)`);

type Row = Record<string, unknown>;
function median(sql: string, params: unknown[], runs: number): { ms: number; rows: Row[] } {
  const xs: number[] = [];
  let rows: Row[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    rows = db.prepare(sql).all(...params) as Row[];
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return { ms: Math.round(xs[Math.floor(runs / 2)] * 100) / 100, rows };
}

const p = principalOf('supplier', { supplierCode: values.supplier!, warehouse: values.warehouse! });
const now = new Date();
console.log(
  `${values.db}: ${(db.prepare(`SELECT COUNT(*) AS n FROM "order"`).get() as { n: number }).n} order lines; ${values.supplier} in ${values.warehouse}`,
);
try {
  for (const c of allSummedCharts(metadata)) {
    const e = metadata.entities[c.summary.entity];
    const build = sumsFromRowsSql(app.db.dialect, e, c);
    const t0 = performance.now();
    db.prepare(
      `INSERT INTO _chart_sums (chart, warehouse, supplier, bucket, n, total) SELECT ?, w, s, b, SUM(n), SUM(t) FROM (${build.sql}) u GROUP BY w, s, b`,
    ).run(c.summary.key, ...build.params);
    const size = (db.prepare(`SELECT COUNT(*) AS n FROM _chart_sums WHERE chart = ?`).get(c.summary.key) as { n: number }).n;
    console.log(`  ${c.summary.key}: built from the rows in ${Math.round(performance.now() - t0)} ms, ${size} sums rows`);
    const screen = metadata.screens.find((s) => s.name === c.chart.screen)!;
    const rows = chartStatement(app.engine, p, e, c.chart, screen, now);
    const sums = sumsStatement(c.chart, sumsScope(metadata, e, c.summary, p)!, rows.days);
    const a = median(rows.sql, rows.params, 5);
    const b = median(sums.sql, sums.params, 9);
    const fromRows = new Map(a.rows.map((r) => [String(r.k), Number(r.v)]));
    const same = b.rows.length === fromRows.size && b.rows.every((r) => Number(c.chart.sum ? r.t : r.n) === fromRows.get(String(r.k)));
    const read = b.rows.reduce((n, r) => n + Number(r.r), 0);
    console.log(`    from the rows ${a.ms} ms; from ${read} sums rows ${b.ms} ms (x${Math.round(a.ms / Math.max(b.ms, 0.01))}); the same answer: ${same}`);
  }
} finally {
  db.close();
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
