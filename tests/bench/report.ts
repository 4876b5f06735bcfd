/**
 * The bench's results: their shape (checked by the smoke test), the targets of the issue judged
 * against them, and the short Markdown table run.ts prints and writes beside the JSON.
 */
export type StepStatus = 'ok' | 'pending' | 'failed';
export interface StepResult { status: StepStatus; note?: string; error?: string; [k: string]: unknown }

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
  machine: { cpus: number; cpuModel: string; memGiB: number; node: string; sqlite: string; platform: string; pinned: boolean };
  config: { scale: number; rounds: number; durationS: number; warmupS: number; connections: number; smoke: boolean; db: string; dbBytes: number };
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
    measured: ok('list') ? `${n(list.ratios.genericToHand, 3)}x (${n(list.variants.generic.reqPerSec)} vs ${n(list.variants.hand.reqPerSec)} req/s)` : s.list?.status ?? 'not run',
    met: ok('list') ? list.ratios.genericToHand >= 0.9 : null,
  });
  t.push({
    id: 'list.p95',
    what: `generic list route p95, 10 connections, ${n(s.seed?.rows?.orders ?? 0, 0)} order lines`,
    target: '< 50 ms',
    measured: ok('list') ? `${n(list.variants.generic.p95, 1)} ms` : s.list?.status ?? 'not run',
    met: ok('list') && full ? list.variants.generic.p95 < 50 : null,
  });
  t.push({
    id: 'list.count',
    what: 'count over millions of rows avoided or bounded',
    target: 'bounded count, lower bound flagged in Content-Range',
    measured: ok('list') ? `Content-Range ${list.query.contentRange}; count plan: ${list.plans.count.filter((l: string) => /SEARCH|SCAN a/.test(l)).join(' | ')}` : s.list?.status ?? 'not run',
    met: ok('list') ? /\d+\+$/.test(list.query.contentRange) || !full : null,
  });
  t.push({
    id: 'index.coverage',
    what: 'every declared filter and sort of every list screen served by an index (EXPLAIN QUERY PLAN)',
    target: 'no full scan of a large table, no whole-scope sort',
    measured: ok('sweep') ? `${s.sweep.planProblems.length} problem(s) in ${s.sweep.cases} queries; median ${n(s.sweep.listMs.p50, 2)} ms, p95 ${n(s.sweep.listMs.p95, 1)} ms, max ${n(s.sweep.listMs.max, 1)} ms` : s.sweep?.status ?? 'not run',
    met: ok('sweep') ? s.sweep.planProblems.length === 0 : null,
  });
  t.push({
    id: 'ship.overship',
    what: '10 concurrent clients shipping the same lines',
    target: 'never more than the open quantity',
    measured: ok('ship') ? `${s.ship.race.accepted} of ${s.ship.race.calls} racing calls accepted for ${s.ship.race.openPieces} open pieces; ${s.ship.invariantProblems.length} invariant problem(s)` : s.ship?.status ?? 'not run',
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
      : ui?.note ?? ui?.status ?? 'not run',
    met: ok('ui') && full ? ui.renderMs < 250 && (typeof pageAfter !== 'number' || pageAfter < 250) && ui.speedup >= 3 : null,
  });
  t.push({
    id: 'bundle.initial',
    what: 'initial JavaScript (gzip), screens on demand',
    target: '<= 400 KB',
    measured: ok('bundle') ? `${kb(s.bundle.initialGzipBytes)} in ${s.bundle.initialChunks.length} chunk(s); ${s.bundle.onDemandChunks} on demand` : s.bundle?.note ?? s.bundle?.status ?? 'not run',
    met: ok('bundle') ? s.bundle.initialGzipBytes <= 400_000 && s.bundle.onDemandChunks > 0 : null,
  });
  t.push({
    id: 'codegen.full',
    what: 'codegen, full run over all metadata',
    target: '< 2 s',
    measured: ok('codegen') ? `${n(s.codegen.fullMs, 0)} ms (${n(s.codegen.fullWallMs, 0)} ms with node + tsx start-up)` : s.codegen?.status ?? 'not run',
    met: ok('codegen') ? s.codegen.fullMs < 2000 : null,
  });
  t.push({
    id: 'codegen.watch',
    what: 'codegen watch mode, one file changed',
    target: '< 300 ms',
    measured: ok('codegen') ? `${n(s.codegen.watchMs, 0)} ms median, ${n(s.codegen.watchMaxMs, 0)} ms max (touch to written)` : s.codegen?.status ?? 'not run',
    met: ok('codegen') ? s.codegen.watchMs < 300 : null,
  });
  t.push({
    id: 'export.100k',
    what: `export ${ok('export') ? n(s.export.rows, 0) : '100,000'} rows to .xlsx, streamed`,
    target: '< 5 s, peak RSS < 250 MB',
    measured: ok('export') ? `${n(s.export.seconds, 2)} s, peak RSS ${mb(s.export.peakRssBytes)} (server process; ${mb(s.export.rssBeforeBytes)} before the export)` : s.export?.note ?? s.export?.status ?? 'not run',
    met: ok('export') && full ? s.export.seconds < 5 && s.export.peakRssBytes < 250 * 2 ** 20 : null,
  });
  t.push({
    id: 'startup.ready',
    what: `server ready on the ${n(s.seed?.rows?.orders ?? 0, 0)}-line database (spawn to listening)`,
    target: '< 1 s',
    // npm start runs the server compiled ahead (esbuild): that is the figure the target is about;
    // the tsx figure (what tests and the dev loop run) is reported beside it
    measured: ok('startup') ? `${s.startup.compiledAhead?.status === 'ok' ? `${n(s.startup.compiledAhead.readyMs, 0)} ms compiled ahead as npm start runs it; ` : ''}${n(s.startup.readyMs, 0)} ms under tsx (node+tsx ${n(s.startup.breakdown.bootMs, 0)}, imports ${n(s.startup.breakdown.importMs, 0)}, buildApp ${n(s.startup.breakdown.buildMs, 0)}, routes+listen ${n(s.startup.breakdown.listenMs, 0)})` : s.startup?.status ?? 'not run',
    met: ok('startup') ? (s.startup.compiledAhead?.status === 'ok' ? s.startup.compiledAhead.readyMs : s.startup.readyMs) < 1000 : null,
  });
  t.push({
    id: 'seed.time',
    what: 'seeding the demo data at scale',
    target: '(measured, no target)',
    measured: ok('seed') ? `${n(s.seed.seedMs / 1000, 1)} s${s.seed.reused ? ' (database reused; time of its seeding)' : ''}` : s.seed?.status ?? 'not run',
    met: null,
  });
  return t;
}

export function markdownReport(r: BenchResults): string {
  const s = r.steps as Record<string, Any>;
  const out: string[] = [];
  out.push(`Bench ${r.startedAt} — ${r.machine.cpus} CPU (${r.machine.cpuModel}), ${r.machine.memGiB} GiB, Node ${r.machine.node}, SQLite ${r.machine.sqlite}, ${r.machine.pinned ? 'server and load generator pinned to separate CPUs' : 'not pinned'}`);
  out.push(`Data: scale ${r.config.scale}${s.seed?.rows ? ` = ${n(s.seed.rows.orders, 0)} order lines` : ''}, database ${mb(r.config.dbBytes)}; ${r.config.rounds} rounds × ${r.config.durationS} s (+${r.config.warmupS} s warm-up), 10 connections, no pipelining${r.config.smoke ? ' — SMOKE RUN: shapes only, values mean nothing' : ''}; total ${n(r.durationS, 0)} s`);
  const loads = Object.values(s).flatMap((v: Any) => (v.loadAvg1m ? [v.loadAvg1m.before, v.loadAvg1m.after] : []));
  if (loads.length) out.push(`Load average (1 min) on the machine during the steps: ${n(Math.min(...loads), 1)}–${n(Math.max(...loads), 1)} (${r.machine.cpus} CPUs; above ${r.machine.cpus} other work competed with the bench)`);
  out.push('');
  if (s.list?.status === 'ok') {
    const v = s.list.variants;
    out.push(`List: ${s.list.query.resource}, ${s.list.query.user}, filter ${s.list.query.filter}, sort ${s.list.query.sort}, range ${s.list.query.range} → ${n(s.list.query.responseBytes / 1000, 0)} kB, Content-Range \`${s.list.query.contentRange}\``);
    out.push('');
    out.push('| variant | req/s (median, min–max) | p50 ms | p95 ms | p99 ms | server CPU ms/req | server busy |');
    out.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, label] of [['generic', 'generic metadata route'], ['hand', 'hand-written route (same SQL)'], ['raw', 'raw better-sqlite3 + JSON.stringify, in-process']] as const)
      out.push(`| ${label} | ${n(v[name].reqPerSec)} (${n(v[name].reqPerSecMin)}–${n(v[name].reqPerSecMax)}) | ${n(v[name].p50, 2)} | ${n(v[name].p95, 2)} | ${n(v[name].p99, 2)} | ${n(v[name].serverCpuMsPerReq, 2)} | ${name === 'raw' ? '–' : `${n(v[name].serverCpuBusy * 100, 0)}%`} |`);
    if (v.rawObjects) out.push(`| (information) raw, rows as better-sqlite3 objects | ${n(v.rawObjects.reqPerSec)} (${n(v.rawObjects.reqPerSecMin)}–${n(v.rawObjects.reqPerSecMax)}) | ${n(v.rawObjects.p50, 2)} | ${n(v.rawObjects.p95, 2)} | ${n(v.rawObjects.p99, 2)} | ${n(v.rawObjects.serverCpuMsPerReq, 2)} | – |`);
    out.push('');
    out.push(`Ratios (median of per-round ratios): generic/hand ${n(s.list.ratios.genericToHand, 3)}, hand/raw ${n(s.list.ratios.handToRaw, 3)}, generic/raw ${n(s.list.ratios.genericToRaw, 3)}${s.list.ratios.rawArraysToObjects ? `; rows as arrays vs objects ${n(s.list.ratios.rawArraysToObjects, 2)}x` : ''}. Raw latencies are per call with nothing queued.`);
    if (s.list.singleConnection) out.push(`By server CPU per request: generic/hand ${n(s.list.ratios.genericToHandByCpu, 3)}. One connection alone (nothing queued): generic ${n(s.list.singleConnection.reqPerSec)} req/s, p50 ${n(s.list.singleConnection.p50, 2)} ms, p95 ${n(s.list.singleConnection.p95, 2)} ms, p99 ${n(s.list.singleConnection.p99, 2)} ms.`);
    out.push('');
  }
  if (s.ship?.status === 'ok') {
    out.push(`Ship (synchronous=${s.ship.synchronous === 2 ? 'FULL' : s.ship.synchronous}, journal ${s.ship.journalMode}):`);
    out.push('');
    out.push('| clients | lines | ships/s | refused/s | p50 ms | p95 ms | p99 ms |');
    out.push('|---:|---:|---:|---:|---:|---:|---:|');
    for (const k of ['oneClient', 'tenClients'] as const) {
      const x = s.ship[k];
      out.push(`| ${x.clients} | ${x.lines} | ${n(x.shipsPerSec)} | ${n((x.refused / x.calls) * x.callsPerSec)} | ${n(x.p50, 2)} | ${n(x.p95, 2)} | ${n(x.p99, 2)} |`);
    }
    out.push('');
    out.push(`Race: 10 clients, ${s.ship.race.calls} calls for ${s.ship.race.openPieces} open pieces of one line → ${s.ship.race.accepted} accepted, ${s.ship.race.refused} refused (409).`);
    out.push('');
  }
  if (s.sweep?.status === 'ok') {
    out.push(`Sweep: ${s.sweep.cases} list queries (every declared filter with worst-case values, every sort, supplier and internal user), engine time: median ${n(s.sweep.listMs.p50, 2)} ms, p95 ${n(s.sweep.listMs.p95, 1)} ms, max ${n(s.sweep.listMs.max, 1)} ms; ${s.sweep.over50ms} over 50 ms. Slowest:`);
    out.push('');
    for (const w of s.sweep.worst.slice(0, 5)) out.push(`- ${w.label} [${w.principal}]: ${n(w.listMs, 1)} ms (page ${n(w.pageMs, 1)}, count ${n(w.countMs, 1)}; ${w.rows} rows of ${w.total}${w.totalIsLowerBound ? '+' : ''})`);
    out.push('');
  }
  if (s.ui?.status === 'ok') {
    const u = s.ui;
    const h = u.harness;
    out.push(`UI render: ${n(u.rows, 0)} order rows × ${u.columns} columns (screen ${h.query.screen}, ${h.query.user}, filter ${h.query.filter}, sort ${h.query.sort}), headless Chromium ${u.browser.version} on CPUs ${u.browser.cpus}, viewport ${h.viewport.width}×${h.viewport.height}; harness: fresh page per sample, ${u.rounds} rounds, variants rotated; time from setting the data to the list fully rendered (rows painted, no further change).`);
    out.push('');
    out.push('| variant | rendered ms (median, min–max) | first paint ms | React commit ms | rows in DOM | long tasks ms | same cells |');
    out.push('|---|---:|---:|---:|---:|---:|:-:|');
    for (const [k, v] of Object.entries(h.variants) as [string, Any][])
      out.push(`| ${v.label} | ${n(v.renderMs.median)} (${n(v.renderMs.min)}–${n(v.renderMs.max)}) | ${n(v.firstPaintMs.median)} | ${n(v.commitMs.median)} | ${n(v.domRows, 0)} | ${n(v.longTaskMs, 0)} | ${h.sameCells[k] ? 'yes' : '**no**'} |`);
    out.push('');
    out.push(`Ratios (median of per-round ratios): Datagrid/LeanTable ${n(u.ratios.datagridToLean, 2)}x, DataTable/LeanTable ${n(u.ratios.datatableToLean, 2)}x, LeanTable without its window/windowed ${n(u.ratios.leanAllToLean, 2)}x, Datagrid/LeanTable without its window ${n(u.ratios.datagridToLeanAll, 2)}x.`);
    out.push('');
    const pg = u.page;
    const row = (label: string, x: Any) =>
      `| ${label} | ${n(x.renderedMs?.median)} (${n(x.renderedMs?.min)}–${n(x.renderedMs?.max)}) | ${x.dataArrivalMs ? n(x.dataArrivalMs.median) : 'cache'} | ${x.renderAfterDataMs ? `${n(x.renderAfterDataMs.median)} (${n(x.renderAfterDataMs.min)}–${n(x.renderAfterDataMs.max)})` : '–'} | ${n(x.commitMs?.median)} | ${n(x.rowCount, 0)} (${n(x.domRows, 0)} in DOM) |`;
    out.push(`Real page ${pg.path} (built admin, bench database, ${pg.rounds} samples each; \`${pg.ordersUrl}\`):`);
    out.push('');
    out.push('| visit | start → rendered ms (median, min–max) | data arrival ms | rendered after data ms | React commit ms | rows |');
    out.push('|---|---:|---:|---:|---:|---:|');
    out.push(row('new document (navigation start; data fetched)', pg.uncached));
    out.push(row('via the menu, back from the dashboard (click; rows from react-query\'s cache)', pg.cached));
    out.push('');
    out.push(`In-app visits refetch in the background (response ended ${n(pg.cached.refetchEndMs?.median)} ms after the click, median); with that request held back 2 s the list still rendered in ${n(pg.cacheCheck?.renderedMs)} ms (${n(pg.cacheCheck?.rowCount, 0)} rows): the rows come from the cache.`);
    out.push('');
  }
  out.push('| target | measured | met |');
  out.push('|---|---|:-:|');
  for (const x of r.targets) out.push(`| ${x.what}: ${x.target} | ${x.measured.replace(/\|/g, '\\|')} | ${x.met === null ? '–' : x.met ? 'yes' : '**no**'} |`);
  out.push('');
  const failed = Object.entries(s).filter(([, v]) => v.status === 'failed');
  for (const [k, v] of failed) out.push(`Step ${k} FAILED: ${String(v.error).split('\n')[0]}`);
  return out.join('\n') + '\n';
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
  }
  if (s.ship?.status === 'ok') for (const k of ['oneClient', 'tenClients']) for (const m of ['shipsPerSec', 'p50', 'p95', 'p99']) num(`ship.${k}.${m}`, s.ship[k]?.[m]);
  if (s.codegen?.status === 'ok') for (const m of ['fullMs', 'watchMs']) num(`codegen.${m}`, s.codegen[m]);
  if (s.startup?.status === 'ok') num('startup.readyMs', s.startup.readyMs);
  if (s.seed?.status === 'ok') num('seed.seedMs', s.seed.seedMs);
  if (s.export?.status === 'ok') for (const m of ['seconds', 'peakRssBytes', 'rows']) num(`export.${m}`, s.export[m]);
  if (s.sweep?.status === 'ok') num('sweep.listMs.max', s.sweep.listMs?.max);
  if (s.ui?.status === 'ok') {
    for (const m of ['renderMs', 'speedup', 'rows']) num(`ui.${m}`, s.ui[m]);
    for (const v of ['lean', 'datagrid', 'leanAll', 'datatable']) for (const m of ['renderMs', 'firstPaintMs', 'commitMs']) num(`ui.harness.${v}.${m}.median`, s.ui.harness?.variants?.[v]?.[m]?.median);
    for (const v of ['uncached', 'cached']) num(`ui.page.${v}.renderedMs.median`, s.ui.page?.[v]?.renderedMs?.median);
    num('ui.page.uncached.renderAfterDataMs.median', s.ui.page?.uncached?.renderAfterDataMs?.median);
  }
  if (!Array.isArray(o.targets) || !o.targets.length) p.push('targets');
  else for (const t of o.targets) if (typeof t.id !== 'string' || typeof t.measured !== 'string' || ![true, false, null].includes(t.met as never)) p.push(`target ${t.id}`);
  return p;
}
