/**
 * The bench's results: their shape (checked by the smoke test), the targets of the issue judged
 * against them, and the short Markdown table run.ts prints and writes beside the JSON.
 */
import { loginFloodTarget } from './login-flood-target.ts';
import { wanSection, wanTargets } from './wan-report.ts';

export type StepStatus = 'ok' | 'pending' | 'failed';
export interface StepResult {
  status: StepStatus;
  note?: string;
  error?: string;
  [k: string]: unknown;
}

export interface Target {
  id: string;
  what: string;
  target: string;
  measured: string;
  /** null: not measured in this run (pending step, or smoke data too small to judge) */
  met: boolean | null;
}

export interface BenchResults {
  schema: 'portal-bench/1';
  startedAt: string;
  durationS: number;
  machine: { cpus: number; cpuModel: string; memGiB: number; node: string; sqlite: string; postgres?: string | null; platform: string; pinned: boolean };
  config: {
    scale: number;
    rounds: number;
    durationS: number;
    warmupS: number;
    connections: number;
    smoke: boolean;
    db: string;
    dbBytes: number;
    postgres?: Record<string, unknown>;
  };
  steps: Record<string, StepResult>;
  targets: Target[];
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;
const n = (x: unknown, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? (Math.round(x * 10 ** d) / 10 ** d).toLocaleString('en-US') : '–');
const mb = (b: unknown) => (typeof b === 'number' ? `${n(b / 2 ** 20, 1)} MiB` : '–');
const kb = (b: unknown) => (typeof b === 'number' ? `${n(b / 1000, 1)} kB` : '–');

/** The issue's targets, each judged on this run (null when the step did not run or is pending). */
export function evaluateTargets(r: BenchResults): Target[] {
  const s = r.steps as Record<string, Any>;
  const ok = (name: string) => s[name]?.status === 'ok';
  const full = !r.config.smoke;
  const t: Target[] = [];
  const list = s.list;
  t.push({
    id: 'list.ratio',
    what: 'generic list route vs hand-written route, req/s',
    target: '>= 0.9x',
    measured: ok('list')
      ? `${n(list.ratios.genericToHand, 3)}x (${n(list.variants.generic.reqPerSec)} vs ${n(list.variants.hand.reqPerSec)} req/s)`
      : (s.list?.status ?? 'not run'),
    met: ok('list') ? list.ratios.genericToHand >= 0.9 : null,
  });
  t.push({
    id: 'list.p95',
    what: `generic list route p95, 10 connections, ${n(s.seed?.rows?.orders ?? 0, 0)} order lines`,
    target: '< 50 ms',
    measured: ok('list') ? `${n(list.variants.generic.p95, 1)} ms` : (s.list?.status ?? 'not run'),
    met: ok('list') && full ? list.variants.generic.p95 < 50 : null,
  });
  t.push({
    id: 'list.count',
    what: 'count over millions of rows avoided or bounded',
    target: 'bounded count, lower bound flagged in Content-Range',
    measured: ok('list')
      ? `Content-Range ${list.query.contentRange}; count plan: ${list.plans.count.filter((l: string) => /SEARCH|SCAN a/.test(l)).join(' | ')}`
      : (s.list?.status ?? 'not run'),
    met: ok('list') ? /\d+\+$/.test(list.query.contentRange) || !full : null,
  });
  t.push({
    id: 'index.coverage',
    what: 'every declared filter and sort of every list screen served by an index (EXPLAIN QUERY PLAN)',
    target: 'no full scan of a large table, no whole-scope sort',
    measured: ok('sweep')
      ? `${s.sweep.planProblems.length} problem(s) in ${s.sweep.cases} queries; median ${n(s.sweep.listMs.p50, 2)} ms, p95 ${n(s.sweep.listMs.p95, 1)} ms, max ${n(s.sweep.listMs.max, 1)} ms`
      : (s.sweep?.status ?? 'not run'),
    met: ok('sweep') ? s.sweep.planProblems.length === 0 : null,
  });
  t.push({
    id: 'ship.overship',
    what: '10 concurrent clients shipping the same lines',
    target: 'never more than the open quantity',
    measured: ok('ship')
      ? `${s.ship.race.accepted} of ${s.ship.race.calls} racing calls accepted for ${s.ship.race.openPieces} open pieces; ${s.ship.invariantProblems.length} invariant problem(s)`
      : (s.ship?.status ?? 'not run'),
    met: ok('ship') ? s.ship.invariantProblems.length === 0 : null,
  });
  const ui = s.ui;
  // judged on LeanTable in the harness (data set -> fully rendered) and on the real page (response
  // of /api/orders -> fully rendered), against react-admin's <Datagrid> in the same run
  const pageAfter = ui?.page?.uncached?.renderAfterDataMs?.median;
  t.push({
    id: 'ui.render',
    what: `${ok('ui') ? n(ui.rows, 0) : '500'}-row list rendered after data arrival; vs stock <Datagrid>`,
    target: '< 250 ms and >= 3x faster',
    measured: ok('ui')
      ? `${n(ui.renderMs)} ms (harness, LeanTable), ${typeof pageAfter === 'number' ? `${n(pageAfter)} ms on the real page after the /api/orders response` : 'real page: –'}; ${n(ui.speedup, 2)}x faster than <Datagrid> (${n(ui.harness.variants.datagrid.renderMs.median)} ms)`
      : (ui?.note ?? ui?.status ?? 'not run'),
    met: ok('ui') && full ? ui.renderMs < 250 && (typeof pageAfter !== 'number' || pageAfter < 250) && ui.speedup >= 3 : null,
  });
  t.push({
    id: 'bundle.initial',
    what: 'initial JavaScript (gzip) of a signed-in page, screens on demand',
    target: '<= 400 KB',
    measured: ok('bundle')
      ? `${kb(s.bundle.signedInGzipBytes)} in ${s.bundle.signedInChunks.length} chunk(s) signed in (sign-in page ${kb(s.bundle.initialGzipBytes)} in ${s.bundle.initialChunks.length}); ${s.bundle.onDemandChunks} on demand`
      : (s.bundle?.note ?? s.bundle?.status ?? 'not run'),
    met: ok('bundle') ? s.bundle.signedInGzipBytes <= 400_000 && s.bundle.onDemandChunks > 0 : null,
  });
  t.push({
    id: 'codegen.full',
    what: 'codegen, full run over all metadata',
    target: '< 2 s',
    measured: ok('codegen') ? `${n(s.codegen.fullMs, 0)} ms (${n(s.codegen.fullWallMs, 0)} ms with node + tsx start-up)` : (s.codegen?.status ?? 'not run'),
    met: ok('codegen') ? s.codegen.fullMs < 2000 : null,
  });
  t.push({
    id: 'codegen.watch',
    what: 'codegen watch mode, one file changed',
    target: '< 300 ms',
    measured: ok('codegen')
      ? `${n(s.codegen.watchMs, 0)} ms median, ${n(s.codegen.watchMaxMs, 0)} ms max (touch to written)`
      : (s.codegen?.status ?? 'not run'),
    met: ok('codegen') ? s.codegen.watchMs < 300 : null,
  });
  t.push({
    id: 'export.100k',
    what: `export ${ok('export') ? n(s.export.rows, 0) : '100,000'} rows to .xlsx, streamed`,
    target: '< 5 s, peak RSS < 250 MB',
    measured: ok('export')
      ? `${n(s.export.seconds, 2)} s, peak RSS ${mb(s.export.peakRssBytes)} (server process; ${mb(s.export.rssBeforeBytes)} before the export)`
      : (s.export?.note ?? s.export?.status ?? 'not run'),
    met: ok('export') && full ? s.export.seconds < 5 && s.export.peakRssBytes < 250 * 2 ** 20 : null,
  });
  t.push({
    id: 'startup.ready',
    what: `server ready on the ${n(s.seed?.rows?.orders ?? 0, 0)}-line database (spawn to listening)`,
    target: '< 1 s',
    // npm start runs the server compiled ahead (esbuild): that is the figure the target is about;
    // the tsx figure (what tests and the dev loop run) is reported beside it
    measured: ok('startup')
      ? `${s.startup.compiledAhead?.status === 'ok' ? `${n(s.startup.compiledAhead.readyMs, 0)} ms compiled ahead as npm start runs it; ` : ''}${n(s.startup.readyMs, 0)} ms under tsx (node+tsx ${n(s.startup.breakdown.bootMs, 0)}, imports ${n(s.startup.breakdown.importMs, 0)}, buildApp ${n(s.startup.breakdown.buildMs, 0)}, routes+listen ${n(s.startup.breakdown.listenMs, 0)})`
      : (s.startup?.status ?? 'not run'),
    met: ok('startup') ? (s.startup.compiledAhead?.status === 'ok' ? s.startup.compiledAhead.readyMs : s.startup.readyMs) < 1000 : null,
  });
  t.push(...backendTargets(r));
  t.push(...wanTargets(s, full));
  t.push({
    id: 'seed.time',
    what: 'seeding the demo data at scale',
    target: '(measured, no target)',
    measured: ok('seed') ? `${n(s.seed.seedMs / 1000, 1)} s${s.seed.reused ? ' (database reused; time of its seeding)' : ''}` : (s.seed?.status ?? 'not run'),
    met: null,
  });
  t.push(loginFloodTarget(s.loginFlood, full));
  return t;
}

/** The previous list page's server CPU per request (SQLite, one process, docs/performance.md). */
export const PREVIOUS_LIST_CPU_MS = 6.1;
/**
 * The in-process floor's CPU per call in that same run (raw better-sqlite3 + JSON.stringify): code
 * no change touches, so its figure now against then says how much slower the machine is (other
 * work on shared cores inflates every CPU time alike) and lets a loaded run estimate the quiet one.
 */
export const PREVIOUS_FLOOR_CPU_MS = 3.79;

/** The targets of the backends-and-processes comparison (list step `setups`, `comparison`). */
function backendTargets(r: BenchResults): Target[] {
  const s = r.steps as Record<string, Any>;
  const list = s.list?.status === 'ok' ? s.list : null;
  const full = !r.config.smoke;
  const t: Target[] = [];
  const not = list ? 'not measured (no PostgreSQL)' : (s.list?.status ?? 'not run');
  const su = list?.setups ?? {};
  const c = list?.comparison ?? {};
  const gen = (id: string) => su[id]?.variants?.generic;
  const lean = (id: string) => su[id]?.variants?.lean;
  for (const [id, k, leanK, label] of [
    ['pg.list.ratio', 'oneProcess', 'leanOneProcess', '1 process each'],
    ['pg.list.ratio2', 'twoProcesses', 'leanTwoProcesses', '2 processes each'],
  ] as const) {
    // judged on the lean page, the one the admin is served; the full page beside it
    const x = c.postgresToSqlite?.[leanK];
    const whole = c.postgresToSqlite?.[k];
    const [a, b] = k === 'oneProcess' ? ['postgres-1', 'sqlite-1'] : ['postgres-2', 'sqlite-2'];
    t.push({
      id,
      what: `PostgreSQL list throughput per process vs SQLite's, same query and data, the screen's lean page, ${label}`,
      target: '>= 0.7x',
      measured:
        typeof x === 'number'
          ? `${n(x, 3)}x (${n(lean(a)?.reqPerSec)} vs ${n(lean(b)?.reqPerSec)} req/s)${x < 0.7 ? `; ${n(0.7 - x, 3)} short` : ''}; the full page ${n(whole, 3)}x (${n(gen(a)?.reqPerSec)} vs ${n(gen(b)?.reqPerSec)} req/s)`
          : not,
      met: typeof x === 'number' && full ? x >= 0.7 : null,
    });
  }
  for (const b of ['sqlite', 'postgres']) {
    const x = c.twoToOneP95?.[b];
    t.push({
      id: `list.p95.twoProcesses.${b}`,
      what: `list p95 at 10 connections, 2 processes vs 1 (${b === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
      target: '<= 0.6x',
      measured:
        typeof x === 'number' ? `${n(x, 3)}x (${n(gen(`${b}-2`)?.p95)} vs ${n(gen(`${b}-1`)?.p95)} ms)${x > 0.6 ? `; ${n(x - 0.6, 3)} over` : ''}` : not,
      met: typeof x === 'number' && full ? x <= 0.6 : null,
    });
  }
  // the SQLite floor of this run against the previous run's: the machine's speed now
  const floor = su['sqlite-1']?.variants?.raw?.serverCpuMsPerReq;
  const slower = typeof floor === 'number' && floor > 0 ? floor / PREVIOUS_FLOOR_CPU_MS : NaN;
  const scaled = (ms: number) =>
    Number.isFinite(slower) && Math.abs(slower - 1) > 0.1
      ? `; on the previous run's machine speed (floor ${n(floor, 2)} vs ${PREVIOUS_FLOOR_CPU_MS} ms, ${n(slower, 2)}x slower now) about ${n(ms / slower, 2)} ms`
      : '';
  for (const b of ['sqlite', 'postgres']) {
    const g = gen(`${b}-1`);
    const total = g ? g.serverCpuMsPerReq + (g.dbCpuMsPerReq ?? 0) : NaN;
    const dj = su[`${b}-1`]?.variants?.dbJson;
    const djTotal = dj ? dj.serverCpuMsPerReq + (dj.dbCpuMsPerReq ?? 0) : NaN;
    t.push({
      id: `list.cpu.${b}`,
      what: `list page, server CPU per request, generic route, 1 process, ${b === 'sqlite' ? 'SQLite (inside node)' : 'PostgreSQL (node + database)'}`,
      target: `< ${PREVIOUS_LIST_CPU_MS} ms (the previous figure)`,
      measured: g
        ? `${n(total, 2)} ms${b === 'postgres' ? ` (node ${n(g.serverCpuMsPerReq, 2)} + database ${n(g.dbCpuMsPerReq, 2)})` : ''}${total >= PREVIOUS_LIST_CPU_MS ? `; ${n(total - PREVIOUS_LIST_CPU_MS, 2)} ms over` : ''}${scaled(total)}; db-json ${n(djTotal, 2)} ms${scaled(djTotal)}`
        : not,
      met: g && full ? total < PREVIOUS_LIST_CPU_MS : null,
    });
  }
  // experiments: which way of writing a page costs less (> 1: the first named is better)
  const experiment = (id: string, what: string, target: string, reqPerSec: Record<string, unknown> = {}, byCpu: Record<string, unknown> = {}): Target => ({
    id,
    what,
    target,
    measured: Object.keys(reqPerSec).length
      ? Object.keys(reqPerSec)
          .map((k) => `${k}: ${n(reqPerSec[k], 3)}x req/s, ${n(byCpu[k], 3)}x by CPU/req`)
          .join('; ')
      : not,
    met: null,
  });
  const served = '(experiment, no target: the better one is served)';
  t.push(
    experiment(
      'list.leanRowsJson',
      "PostgreSQL's lean page as served (JSON written from row arrays) vs records through the response schema's serialiser (> 1: as served better; by CPU: node + database)",
      served,
      c.leanToRecords,
      c.leanToRecordsByCpu,
    ),
    experiment(
      'list.leanDbJson',
      "PostgreSQL's lean page with its JSON built by PostgreSQL vs in JavaScript (> 1: PostgreSQL's better; by CPU: node + database)",
      served,
      c.leanDbJsonToLean,
      c.leanDbJsonToLeanByCpu,
    ),
    experiment(
      'list.dbJson',
      'list page JSON built in the database vs in JavaScript (db-json / generic; > 1: db-json better)',
      '(experiment, no target)',
      c.dbJsonToGeneric,
      c.dbJsonToGenericByCpu,
    ),
  );
  return t;
}

export function markdownReport(r: BenchResults): string {
  const s = r.steps as Record<string, Any>;
  const out: string[] = [];
  out.push(
    `Bench ${r.startedAt} — ${r.machine.cpus} CPU (${r.machine.cpuModel}), ${r.machine.memGiB} GiB, Node ${r.machine.node}, SQLite ${r.machine.sqlite}, ${r.machine.pinned ? 'server and load generator pinned to separate CPUs' : 'not pinned'}`,
  );
  out.push(
    `Data: scale ${r.config.scale}${s.seed?.rows ? ` = ${n(s.seed.rows.orders, 0)} order lines` : ''}, database ${mb(r.config.dbBytes)}; ${r.config.rounds} rounds × ${r.config.durationS} s (+${r.config.warmupS} s warm-up), 10 connections, no pipelining${r.config.smoke ? ' — SMOKE RUN: shapes only, values mean nothing' : ''}; total ${n(r.durationS, 0)} s`,
  );
  const loads = Object.values(s).flatMap((v: Any) => (v.loadAvg1m ? [v.loadAvg1m.before, v.loadAvg1m.after] : []));
  if (loads.length)
    out.push(
      `Load average (1 min) on the machine during the steps: ${n(Math.min(...loads), 1)}–${n(Math.max(...loads), 1)} (${r.machine.cpus} CPUs; above ${r.machine.cpus} other work competed with the bench)`,
    );
  out.push('');
  if (s.list?.status === 'ok') {
    const v = s.list.variants;
    out.push(
      `List: ${s.list.query.resource}, ${s.list.query.user}, filter ${s.list.query.filter}, sort ${s.list.query.sort}, range ${s.list.query.range} → ${n(s.list.query.responseBytes / 1000, 0)} kB, Content-Range \`${s.list.query.contentRange}\``,
    );
    out.push('');
    out.push('| variant | req/s (median, min–max) | p50 ms | p95 ms | p99 ms | server CPU ms/req | server busy |');
    out.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, label] of [
      ['generic', 'generic metadata route'],
      ['hand', 'hand-written route (same SQL)'],
      ['raw', 'raw better-sqlite3 + JSON.stringify, in-process'],
    ] as const)
      out.push(
        `| ${label} | ${n(v[name].reqPerSec)} (${n(v[name].reqPerSecMin)}–${n(v[name].reqPerSecMax)}) | ${n(v[name].p50, 2)} | ${n(v[name].p95, 2)} | ${n(v[name].p99, 2)} | ${n(v[name].serverCpuMsPerReq, 2)} | ${name === 'raw' ? '–' : `${n(v[name].serverCpuBusy * 100, 0)}%`} |`,
      );
    if (v.dbJson)
      out.push(
        `| db-json: the page's JSON built by SQLite (json_group_array), sent as is | ${n(v.dbJson.reqPerSec)} (${n(v.dbJson.reqPerSecMin)}–${n(v.dbJson.reqPerSecMax)}) | ${n(v.dbJson.p50, 2)} | ${n(v.dbJson.p95, 2)} | ${n(v.dbJson.p99, 2)} | ${n(v.dbJson.serverCpuMsPerReq, 2)} | ${n(v.dbJson.serverCpuBusy * 100, 0)}% |`,
      );
    if (v.rawObjects)
      out.push(
        `| (information) raw, rows as better-sqlite3 objects | ${n(v.rawObjects.reqPerSec)} (${n(v.rawObjects.reqPerSecMin)}–${n(v.rawObjects.reqPerSecMax)}) | ${n(v.rawObjects.p50, 2)} | ${n(v.rawObjects.p95, 2)} | ${n(v.rawObjects.p99, 2)} | ${n(v.rawObjects.serverCpuMsPerReq, 2)} | – |`,
      );
    out.push('');
    out.push(
      `Ratios (median of per-round ratios): generic/hand ${n(s.list.ratios.genericToHand, 3)}, hand/raw ${n(s.list.ratios.handToRaw, 3)}, generic/raw ${n(s.list.ratios.genericToRaw, 3)}${s.list.ratios.rawArraysToObjects ? `; rows as arrays vs objects ${n(s.list.ratios.rawArraysToObjects, 2)}x` : ''}. Raw latencies are per call with nothing queued.`,
    );
    if (s.list.singleConnection)
      out.push(
        `By server CPU per request: generic/hand ${n(s.list.ratios.genericToHandByCpu, 3)}. One connection alone (nothing queued): generic ${n(s.list.singleConnection.reqPerSec)} req/s, p50 ${n(s.list.singleConnection.p50, 2)} ms, p95 ${n(s.list.singleConnection.p95, 2)} ms, p99 ${n(s.list.singleConnection.p99, 2)} ms.`,
      );
    out.push('');
  }
  if (s.list?.status === 'ok' && s.list.setups) out.push(...backendsSection(r));
  if (s.ship?.status === 'ok') {
    out.push(`Ship (synchronous=${s.ship.synchronous === 2 ? 'FULL' : s.ship.synchronous}, journal ${s.ship.journalMode}):`);
    out.push('');
    out.push('| clients | lines | ships/s | refused/s | p50 ms | p95 ms | p99 ms |');
    out.push('|---:|---:|---:|---:|---:|---:|---:|');
    for (const k of ['oneClient', 'tenClients'] as const) {
      const x = s.ship[k];
      out.push(
        `| ${x.clients} | ${x.lines} | ${n(x.shipsPerSec)} | ${n((x.refused / x.calls) * x.callsPerSec)} | ${n(x.p50, 2)} | ${n(x.p95, 2)} | ${n(x.p99, 2)} |`,
      );
    }
    out.push('');
    out.push(
      `Race: 10 clients, ${s.ship.race.calls} calls for ${s.ship.race.openPieces} open pieces of one line → ${s.ship.race.accepted} accepted, ${s.ship.race.refused} refused (409).`,
    );
    out.push('');
    if (s.ship.setups) out.push(...shipSection(s.ship));
  }
  if (s.sweep?.status === 'ok') {
    out.push(
      `Sweep: ${s.sweep.cases} list queries (every declared filter with worst-case values, every sort, supplier and internal user), engine time: median ${n(s.sweep.listMs.p50, 2)} ms, p95 ${n(s.sweep.listMs.p95, 1)} ms, max ${n(s.sweep.listMs.max, 1)} ms; ${s.sweep.over50ms} over 50 ms. Slowest:`,
    );
    out.push('');
    for (const w of s.sweep.worst.slice(0, 5))
      out.push(
        `- ${w.label} [${w.principal}]: ${n(w.listMs, 1)} ms (page ${n(w.pageMs, 1)}, count ${n(w.countMs, 1)}; ${w.rows} rows of ${w.total}${w.totalIsLowerBound ? '+' : ''})`,
      );
    out.push('');
  }
  if (s.ui?.status === 'ok') {
    const u = s.ui;
    const h = u.harness;
    out.push(
      `UI render: ${n(u.rows, 0)} order rows × ${u.columns} columns (screen ${h.query.screen}, ${h.query.user}, filter ${h.query.filter}, sort ${h.query.sort}), headless Chromium ${u.browser.version} on CPUs ${u.browser.cpus}, viewport ${h.viewport.width}×${h.viewport.height}; harness: fresh page per sample, ${u.rounds} rounds, variants rotated; time from setting the data to the list fully rendered (rows painted, no further change).`,
    );
    out.push('');
    out.push('| variant | rendered ms (median, min–max) | first paint ms | React commit ms | rows in DOM | long tasks ms | same cells |');
    out.push('|---|---:|---:|---:|---:|---:|:-:|');
    for (const [k, v] of Object.entries(h.variants) as [string, Any][])
      out.push(
        `| ${v.label} | ${n(v.renderMs.median)} (${n(v.renderMs.min)}–${n(v.renderMs.max)}) | ${n(v.firstPaintMs.median)} | ${n(v.commitMs.median)} | ${n(v.domRows, 0)} | ${n(v.longTaskMs, 0)} | ${h.sameCells[k] ? 'yes' : '**no**'} |`,
      );
    out.push('');
    out.push(
      `Ratios (median of per-round ratios): Datagrid/LeanTable ${n(u.ratios.datagridToLean, 2)}x, DataTable/LeanTable ${n(u.ratios.datatableToLean, 2)}x, LeanTable without its window/windowed ${n(u.ratios.leanAllToLean, 2)}x, Datagrid/LeanTable without its window ${n(u.ratios.datagridToLeanAll, 2)}x.`,
    );
    out.push('');
    const pg = u.page;
    const row = (label: string, x: Any) =>
      `| ${label} | ${n(x.renderedMs?.median)} (${n(x.renderedMs?.min)}–${n(x.renderedMs?.max)}) | ${x.dataArrivalMs ? n(x.dataArrivalMs.median) : 'cache'} | ${x.renderAfterDataMs ? `${n(x.renderAfterDataMs.median)} (${n(x.renderAfterDataMs.min)}–${n(x.renderAfterDataMs.max)})` : '–'} | ${n(x.commitMs?.median)} | ${n(x.rowCount, 0)} (${n(x.domRows, 0)} in DOM) |`;
    out.push(`Real page ${pg.path} (built admin, bench database, ${pg.rounds} samples each; \`${pg.ordersUrl}\`):`);
    out.push('');
    out.push('| visit | start → rendered ms (median, min–max) | data arrival ms | rendered after data ms | React commit ms | rows |');
    out.push('|---|---:|---:|---:|---:|---:|');
    out.push(row('new document (navigation start; data fetched)', pg.uncached));
    out.push(row("via the menu, back from the dashboard (click; rows from react-query's cache)", pg.cached));
    out.push('');
    out.push(
      `In-app visits refetch in the background (response ended ${n(pg.cached.refetchEndMs?.median)} ms after the click, median); ${pg.cacheCheck?.heldUntilRendered ? 'with that request held back until the list had rendered, it rendered in' : 'with that request held back 2 s the list still rendered in'} ${n(pg.cacheCheck?.renderedMs)} ms (${n(pg.cacheCheck?.rowCount, 0)} rows): the rows come from the cache.`,
    );
    out.push('');
  }
  out.push(...wanSection(s));
  out.push('| target | measured | met |');
  out.push('|---|---|:-:|');
  for (const x of r.targets) out.push(`| ${x.what}: ${x.target} | ${x.measured.replace(/\|/g, '\\|')} | ${x.met === null ? '–' : x.met ? 'yes' : '**no**'} |`);
  out.push('');
  const failed = Object.entries(s).filter(([, v]) => v.status === 'failed');
  for (const [k, v] of failed) out.push(`Step ${k} FAILED: ${String(v.error).split('\n')[0]}`);
  return out.join('\n') + '\n';
}

const VARIANT_LABELS: Record<string, string> = {
  generic: 'generic route, full page (as served: JSON by SQLite / in JavaScript on PostgreSQL)',
  dbJson: 'db-json, full page (JSON built by the database)',
  lean: "lean page, the screen's fields (as served)",
  leanDbJson: 'lean page, db-json (JSON built by PostgreSQL)',
  leanRecords: 'lean page, records through the serialiser (PostgreSQL before rows-json)',
  hand: 'hand-written route',
  raw: 'floor: statements + JSON.stringify, no HTTP',
  rawObjects: 'floor, rows as driver objects',
};

/** Setups side by side: list variants per backend and process count, their ratios, the JSON check, seeding. */
function backendsSection(r: BenchResults): string[] {
  const s = r.steps as Record<string, Any>;
  const l = s.list;
  const out: string[] = [];
  const pgs = r.config.postgres?.settings as Record<string, string> | undefined;
  out.push(
    `Backends and processes (same query, same data; 10 connections; node CPU = every server process, database CPU = the PostgreSQL postmaster and all its processes, from /proc, per request):`,
  );
  out.push('');
  out.push('| setup | variant | req/s (median, min–max) | p50 ms | p95 ms | p99 ms | node CPU ms/req | database CPU ms/req | node busy | database busy |');
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const x of Object.values(l.setups) as Any[]) {
    for (const [v, m] of Object.entries(x.variants) as [string, Any][]) {
      if (v === 'hand' || v === 'rawObjects') continue;
      const db = x.backend === 'postgres';
      // PostgreSQL's floor keeps 10 calls in flight (a call mostly waits for the database)
      const label = db && v === 'raw' ? `${VARIANT_LABELS.raw}, 10 in flight` : (VARIANT_LABELS[v] ?? v);
      out.push(
        `| ${x.label} | ${label} | ${n(m.reqPerSec)} (${n(m.reqPerSecMin)}–${n(m.reqPerSecMax)}) | ${n(m.p50, 2)} | ${n(m.p95, 2)} | ${n(m.p99, 2)} | ${n(m.serverCpuMsPerReq, 2)} | ${db ? n(m.dbCpuMsPerReq, 2) : '(in node)'} | ${n(m.serverCpuBusy * 100, 0)}% | ${db ? `${n(m.dbCpuBusy * 100, 0)}%` : '–'} |`,
      );
    }
  }
  out.push('');
  const c = l.comparison;
  const kv = (o: Record<string, unknown> | undefined, d = 3) =>
    Object.entries(o ?? {})
      .map(([k, v]) => `${k} ${n(v, d)}`)
      .join(', ');
  out.push(
    `Ratios (median of per-round ratios): PostgreSQL/SQLite req/s per process, lean page: 1 process ${n(c.postgresToSqlite?.leanOneProcess, 3)}, 2 processes ${n(c.postgresToSqlite?.leanTwoProcesses, 3)}; full page: 1 process ${n(c.postgresToSqlite?.oneProcess, 3)}, 2 processes ${n(c.postgresToSqlite?.twoProcesses, 3)}; PostgreSQL lean db-json/as served req/s: ${kv(c.leanDbJsonToLean)}, by CPU (node + database) ${kv(c.leanDbJsonToLeanByCpu)}; PostgreSQL lean as served/records req/s: ${kv(c.leanToRecords)}, by CPU ${kv(c.leanToRecordsByCpu)}; 2 processes/1, p95: ${kv(c.twoToOneP95)}; req/s: ${kv(c.twoToOneReqPerSec)}; db-json/generic req/s: ${kv(c.dbJsonToGeneric)}; by CPU per request (generic/db-json): ${kv(c.dbJsonToGenericByCpu)}.`,
  );
  const single = Object.entries(l.setups as Record<string, Any>)
    .filter(([, x]) => x.singleConnection)
    .map(([, x]) => `${x.label} ${n(x.singleConnection.reqPerSec)} req/s, p50 ${n(x.singleConnection.p50, 2)} ms, p95 ${n(x.singleConnection.p95, 2)} ms`);
  if (single.length) out.push(`One connection alone (generic): ${single.join('; ')}.`);
  out.push(
    `Placement: ${Object.values(l.setups as Record<string, Any>)
      .map((x) => `${x.label}: ${x.placement}`)
      .join('; ')}.`,
  );
  const same = Object.entries(l.setups as Record<string, Any>)
    .filter(([id]) => id !== 'sqlite-1')
    .map(([, x]) => `${x.label} ${x.sameBodyAsSqlite ? 'same bytes' : '**different bytes**'}`);
  out.push(`The bench page on each setup vs SQLite's: ${same.join(', ')} (${n(l.query.responseBytes / 1000, 0)} kB).`);
  if (pgs)
    out.push(
      `PostgreSQL ${r.machine.postgres ?? ''}: ${Object.entries(pgs)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}.`,
    );
  for (const [b, j] of Object.entries((l.jsonCheck ?? {}) as Record<string, Any>))
    out.push(
      `JSON check, ${b}: generic vs db-json on ${j.queries} list queries (every declared filter and sort, supplier and internal staff): ${j.identical} byte-identical (${j.refusedByBoth} of them refused by both), ${j.parseEqual} equal after JSON.parse, ${j.different} different${j.examples.length ? `; e.g. ${j.examples.join('; ')}` : ''}.`,
    );
  const seed = s.seed;
  if (seed?.postgres?.status === 'ok')
    out.push(
      `Seeding the same data: SQLite ${n(seed.seedMs / 1000, 1)} s (+${n(seed.checkpointMs / 1000, 1)} s checkpoint, ${mb(seed.dbBytes)}), PostgreSQL ${n(seed.postgres.seedMs / 1000, 1)} s (+${n(seed.postgres.vacuumMs / 1000, 1)} s VACUUM, +${n(seed.postgres.checkpointMs / 1000, 1)} s CHECKPOINT, ${mb(seed.postgres.dbBytes)})${seed.postgres.reused ? ' (databases reused; times of their seeding)' : ''}; row counts ${seed.postgres.sameRowCountsAsSqlite ? 'identical' : '**differ**'}.`,
    );
  else if (seed?.postgres) out.push(`PostgreSQL: ${seed.postgres.note ?? seed.postgres.status}.`);
  out.push('');
  return out;
}

function shipSection(ship: Any): string[] {
  const out: string[] = [];
  out.push('Ship per setup (each commit durable; CPU per call around the 1-client and 10-client loops):');
  out.push('');
  out.push(
    '| setup | durability | 1 client ships/s | p95 ms | 10 clients ships/s | p50 ms | p95 ms | p99 ms | node CPU ms/call | database CPU ms/call | race |',
  );
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const x of Object.values(ship.setups) as Any[]) {
    const t = x.tenClients;
    out.push(
      `| ${x.label} | ${x.durability} | ${n(x.oneClient.shipsPerSec)} | ${n(x.oneClient.p95, 2)} | ${n(t.shipsPerSec)} | ${n(t.p50, 2)} | ${n(t.p95, 2)} | ${n(t.p99, 2)} | ${n(t.serverCpuMsPerCall, 2)} | ${x.durability.startsWith('fsync') ? n(t.dbCpuMsPerCall, 2) : '(in node)'} | ${x.race.accepted}/${x.race.calls} for ${x.race.openPieces} |`,
    );
  }
  out.push('');
  const c = ship.comparison ?? {};
  out.push(
    `PostgreSQL/SQLite ships/s: 1 client ${n(c.postgresToSqlite?.oneClient, 3)}, 10 clients ${n(c.postgresToSqlite?.tenClients, 3)}, 10 clients on 2 processes ${n(c.postgresToSqlite?.tenClientsTwoProcesses, 3)}; 2 processes/1 (10 clients): SQLite ${n(c.twoToOneTenClients?.sqlite, 3)}, PostgreSQL ${n(c.twoToOneTenClients?.postgres, 3)}. Invariant problems: ${ship.invariantProblems.length}.`,
  );
  out.push('');
  return out;
}

/** Problems with the shape of a results file (the smoke test asserts there are none). */
export function validateResults(r: unknown): string[] {
  const p: string[] = [];
  const o = r as Partial<BenchResults>;
  if (!o || typeof o !== 'object') return ['not an object'];
  if (o.schema !== 'portal-bench/1') p.push('schema');
  for (const k of ['cpus', 'node', 'sqlite'] as const) if (o.machine?.[k] === undefined) p.push(`machine.${k}`);
  if (typeof o.config?.scale !== 'number') p.push('config.scale');
  if (!o.steps || typeof o.steps !== 'object') return [...p, 'steps'];
  for (const [k, v] of Object.entries(o.steps)) if (!['ok', 'pending', 'failed'].includes(v?.status)) p.push(`steps.${k}.status`);
  const num = (path: string, x: unknown) => {
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) p.push(`${path} is not a finite number >= 0 (${String(x)})`);
  };
  const s = o.steps as Record<string, Any>;
  if (s.list?.status === 'ok') {
    for (const v of ['generic', 'hand', 'raw']) for (const m of ['reqPerSec', 'p50', 'p95', 'p99']) num(`list.${v}.${m}`, s.list.variants?.[v]?.[m]);
    for (const m of ['genericToHand', 'handToRaw', 'genericToRaw']) num(`list.ratios.${m}`, s.list.ratios?.[m]);
    if (!s.list.setups || typeof s.list.setups !== 'object') p.push('list.setups');
    for (const [id, x] of Object.entries((s.list.setups ?? {}) as Record<string, Any>)) {
      for (const v of ['generic', 'dbJson'])
        for (const m of ['reqPerSec', 'p50', 'p95', 'p99', 'serverCpuMsPerReq', 'dbCpuMsPerReq', 'totalCpuMsPerReq'])
          num(`list.setups.${id}.${v}.${m}`, x.variants?.[v]?.[m]);
      if (typeof x.placement !== 'string') p.push(`list.setups.${id}.placement`);
    }
    for (const [b, j] of Object.entries((s.list.jsonCheck ?? {}) as Record<string, Any>))
      for (const m of ['queries', 'identical', 'parseEqual', 'different']) num(`list.jsonCheck.${b}.${m}`, j?.[m]);
    for (const [k, v] of Object.entries((s.list.comparison?.dbJsonToGeneric ?? {}) as Record<string, unknown>)) num(`list.comparison.dbJsonToGeneric.${k}`, v);
  }
  if (s.ship?.status === 'ok') {
    for (const k of ['oneClient', 'tenClients']) for (const m of ['shipsPerSec', 'p50', 'p95', 'p99']) num(`ship.${k}.${m}`, s.ship[k]?.[m]);
    for (const [id, x] of Object.entries((s.ship.setups ?? {}) as Record<string, Any>))
      for (const k of ['oneClient', 'tenClients'])
        for (const m of ['shipsPerSec', 'p95', 'serverCpuMsPerCall', 'dbCpuMsPerCall']) num(`ship.setups.${id}.${k}.${m}`, x[k]?.[m]);
  }
  if (s.codegen?.status === 'ok') for (const m of ['fullMs', 'watchMs']) num(`codegen.${m}`, s.codegen[m]);
  if (s.startup?.status === 'ok') num('startup.readyMs', s.startup.readyMs);
  if (s.seed?.status === 'ok') num('seed.seedMs', s.seed.seedMs);
  if (s.export?.status === 'ok') for (const m of ['seconds', 'peakRssBytes', 'rows']) num(`export.${m}`, s.export[m]);
  if (s.sweep?.status === 'ok') num('sweep.listMs.max', s.sweep.listMs?.max);
  if (s.ui?.status === 'ok') {
    for (const m of ['renderMs', 'speedup', 'rows']) num(`ui.${m}`, s.ui[m]);
    for (const v of ['lean', 'datagrid', 'leanAll', 'datatable'])
      for (const m of ['renderMs', 'firstPaintMs', 'commitMs']) num(`ui.harness.${v}.${m}.median`, s.ui.harness?.variants?.[v]?.[m]?.median);
    for (const v of ['uncached', 'cached']) num(`ui.page.${v}.renderedMs.median`, s.ui.page?.[v]?.renderedMs?.median);
    num('ui.page.uncached.renderAfterDataMs.median', s.ui.page?.uncached?.renderAfterDataMs?.median);
  }
  if (!Array.isArray(o.targets) || !o.targets.length) p.push('targets');
  else
    for (const t of o.targets)
      if (typeof t.id !== 'string' || typeof t.measured !== 'string' || ![true, false, null].includes(t.met as never)) p.push(`target ${t.id}`);
  return p;
}
