/**
 * npm run bench [-- options]: the benchmark suite. Seeds the demo data at scale (timed) into SQLite
 * and PostgreSQL, starts the real server in child processes (pinned to CPU 1 when taskset exists;
 * this process, the load generator, takes CPU 0; with two server processes see setups.ts,
 * "CPU placement"), measures each scenario against its baseline in the same run, and writes
 * tests/bench/results/latest.json (machine-readable) and latest.md (the tables), also printed.
 * The list and ship steps run on four setups side by side: SQLite and PostgreSQL, each with one
 * server process and with two (node:cluster, as PORTAL_WORKERS=2), and the list step compares the
 * generic route with the page's JSON built by the database (db-json, server/engine/list-json.ts).
 *
 * Options:
 *   --scale N        demo seed scale (default 1667: 1,000,200 purchase order lines; 1 = 600)
 *   --rounds N       alternating rounds of the list variants (default 3)
 *   --duration S     seconds measured per variant and round (default 8); --warmup S (default 2)
 *   --only a,b       steps to run: seed,startup,list,sweep,ship,inbound,home,export,codegen,ui,bundle,loginFlood,wan
 *   --db FILE        database file (default data/bench/portal-<scale>.db); --reuse-db keeps an
 *                    existing one instead of seeding again (its seeding time is reported as reused)
 *   --out DIR        where results go (default tests/bench/results)
 *   --no-pg          leave PostgreSQL out (by default the list and ship steps run on SQLite and on
 *                    PostgreSQL, each with 1 and 2 server processes, when PostgreSQL is installed)
 *   --smoke          tiny data and short runs: the shape of the results, not their values (npm test);
 *                    each user logs in once per server (a production-cost hash each), few logins
 *                    in the login-flood step, shorter fixed waits in the browser steps
 *
 * PostgreSQL: a durable server started for the run (tests/support/postgres.ts, startDurableCluster:
 * fsync and synchronous_commit on, shared_buffers 1GB, ...), its data in <db>.pg/ (kept for
 * --reuse-db; a smoke run uses a temporary folder), the bench database seeded with the same data.
 */
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT, canPin, pinSelf, reuseLogins, round } from './lib.ts';
import { evaluateTargets, markdownReport, type BenchResults, type StepResult } from './report.ts';
import { seedStep, startupStep, listStep, sweepStep, shipStep, exportStep, codegenStep, type Ctx } from './steps.ts';
import { pgDataDir, pgSeedInfoFile, readSeedInfo, startBenchPostgres, type BenchPostgres } from './setups.ts';
import { uiRenderStep, bundleStep } from './ui.ts';
import { loginFloodStep } from './login-flood.ts';
import { wanStep } from './wan.ts';
import { inboundStep } from './inbound.ts';
import { homeStep } from './home-step.ts';

const STEPS = ['seed', 'startup', 'list', 'sweep', 'ship', 'inbound', 'home', 'export', 'codegen', 'ui', 'bundle', 'loginFlood', 'wan'] as const;
type Step = (typeof STEPS)[number];

function parseArgs(argv: string[]) {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const smoke = argv.includes('--smoke');
  const scale = Number(get('scale') ?? (smoke ? 0.5 : 1667));
  const only = get('only')?.split(',') as Step[] | undefined;
  for (const s of only ?? []) if (!STEPS.includes(s)) throw new Error(`unknown step "${s}" (steps: ${STEPS.join(', ')})`);
  return {
    smoke,
    scale,
    rounds: Number(get('rounds') ?? (smoke ? 1 : 3)),
    duration: Number(get('duration') ?? (smoke ? 0.2 : 8)),
    warmup: Number(get('warmup') ?? (smoke ? 0 : 2)),
    only: new Set<Step>(only ?? STEPS),
    db: resolve(get('db') ?? join(ROOT, 'data', 'bench', `portal-${scale}.db`)),
    reuseDb: argv.includes('--reuse-db'),
    noPg: argv.includes('--no-pg'),
    out: resolve(get('out') ?? join(ROOT, 'tests', 'bench', 'results')),
  };
}

export async function main(argv: string[]): Promise<BenchResults> {
  const opts = parseArgs(argv);
  const started = new Date();
  const ncpu = cpus().length;
  const pinned = canPin(ncpu);
  // the load generator (this process) on CPU 0, the server on CPU 1
  if (pinned) pinSelf(0);
  const work = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  const sqliteVersion = (new Database(':memory:').prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
  // a login costs a password hash at production cost: a smoke run logs each user in once per server
  if (opts.smoke) reuseLogins();
  const ctx: Ctx = { ...opts, work, serverCpu: pinned ? 1 : undefined, pinned, pg: null, log };
  const steps: Record<string, StepResult> = {};
  const t0 = performance.now();
  let pgInfo: Record<string, unknown> = { note: 'not started' };
  const run = async (name: Step, f: () => Promise<StepResult>) => {
    // a reused database is still checked against the metadata (and its seeding figures read back)
    if (!opts.only.has(name) && !(name === 'seed' && opts.reuseDb)) return;
    ctx.log(`${name} ...`);
    const t = performance.now();
    const load0 = loadavg()[0];
    try {
      steps[name] = await f();
      // other work on the machine skews every figure: recorded with each step
      steps[name].loadAvg1m = { before: round(load0), after: round(loadavg()[0]) };
    } catch (err) {
      steps[name] = { status: 'failed', error: String((err as Error).stack ?? err) };
      ctx.log(`${name} failed: ${(err as Error).message}`);
    }
    ctx.log(`${name} ${steps[name].status} (${round((performance.now() - t) / 1000, 1)} s)`);
  };

  try {
    if (opts.noPg) ctx.pgNote = 'left out (--no-pg)';
    else if (opts.only.has('seed') || opts.only.has('list') || opts.only.has('ship') || opts.only.has('inbound') || opts.reuseDb) {
      // a smoke run's tiny data needs no big buffer cache
      ctx.pg = await startPostgres(ctx, opts.smoke ? undefined : pgDataDir(opts.db), opts.smoke ? { shared_buffers: '128MB' } : {});
      pgInfo = ctx.pg
        ? { startMs: round(ctx.pg.startMs), dataDir: ctx.pg.cluster.dir, clusterReused: ctx.pg.cluster.reused, settings: ctx.pg.cluster.settings }
        : { note: ctx.pgNote };
    }
    await run('seed', () => seedStep(ctx));
    // without a seed step this run, a database seeded at this scale by an earlier one
    ctx.pgSeeded =
      !!ctx.pg &&
      (steps.seed
        ? (steps.seed.postgres as { status?: string } | undefined)?.status === 'ok'
        : readSeedInfo(pgSeedInfoFile(opts.db))?.scale === opts.scale && ctx.pg.cluster.reused);
    if (!existsSync(opts.db)) throw new Error(`no database at ${opts.db} (run the seed step)`);
    await run('startup', () => startupStep(ctx));
    await run('list', () => listStep(ctx));
    await run('sweep', () => sweepStep(ctx));
    await run('ship', () => shipStep(ctx));
    await run('inbound', () => inboundStep(ctx));
    await run('home', () => homeStep(ctx));
    await run('export', () => exportStep(ctx));
    await run('codegen', () => codegenStep(ctx));
    await run('ui', () => uiRenderStep(ctx));
    await run('bundle', () => bundleStep(ctx));
    await run('loginFlood', () => loginFloodStep(ctx));
    await run('wan', () => wanStep(ctx));
  } finally {
    // every server once (a smoke run's SQLite setup is the shared server)
    for (const server of new Set([ctx.shared, ...[...(ctx.running?.values() ?? [])].map((r) => r.server)])) await server?.stop();
    await ctx.pg?.stop();
    if (ctx.bundle) rmSync(ctx.bundle, { force: true });
    rmSync(work, { recursive: true, force: true });
  }

  const results: BenchResults = {
    schema: 'portal-bench/1',
    startedAt: started.toISOString(),
    durationS: round((performance.now() - t0) / 1000, 1),
    machine: {
      cpus: ncpu,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memGiB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      sqlite: sqliteVersion,
      postgres: ctx.pg?.version ?? null,
      platform: `${process.platform} ${process.arch}`,
      pinned,
    },
    config: {
      scale: opts.scale,
      rounds: opts.rounds,
      durationS: opts.duration,
      warmupS: opts.warmup,
      connections: 10,
      smoke: opts.smoke,
      db: opts.db,
      dbBytes: existsSync(opts.db) ? statSync(opts.db).size : 0,
      postgres: pgInfo,
    },
    steps,
    targets: [],
  };
  results.targets = evaluateTargets(results);
  mkdirSync(opts.out, { recursive: true });
  writeFileSync(join(opts.out, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  const md = markdownReport(results);
  writeFileSync(join(opts.out, 'latest.md'), md);
  process.stdout.write(md);
  return results;
}

/** The bench's PostgreSQL, or null with ctx.pgNote saying why (not installed; failed to start: reported, not fatal). */
async function startPostgres(ctx: Ctx, dataDir: string | undefined, settings: Record<string, string>): Promise<BenchPostgres | null> {
  try {
    const pg = await startBenchPostgres(dataDir, settings);
    if (!pg) ctx.pgNote = 'PostgreSQL is not installed (no initdb/pg_ctl found; see tests/support/postgres.ts)';
    else ctx.log(`PostgreSQL started in ${round(pg.startMs / 1000, 1)} s (${pg.cluster.dir}${pg.cluster.reused ? ', existing data' : ''})`);
    return pg;
  } catch (err) {
    ctx.pgNote = `PostgreSQL failed to start: ${(err as Error).message.split('\n')[0]}`;
    ctx.log(ctx.pgNote);
    return null;
  }
}

// `npm run bench` runs this file; tests import main() from it
if (process.argv[1] && resolve(process.argv[1]) === resolve(ROOT, 'tests', 'bench', 'run.ts')) {
  main(process.argv.slice(2)).then(
    (r) => {
      const failed = Object.entries(r.steps).filter(([, s]) => s.status === 'failed');
      process.exitCode = failed.length ? 1 : 0;
    },
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
