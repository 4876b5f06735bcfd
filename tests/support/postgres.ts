/**
 * A throw-away PostgreSQL server for tests: `startThrowawayCluster()` runs initdb + pg_ctl in a
 * fresh temporary folder on a free 127.0.0.1 port, `ensurePostgres()` prefers a user-supplied
 * DATABASE_URL, and `createTestDatabase()` gives each test (file) its own database on that server so
 * parallel workers never see each other's tables.
 *
 * The cluster is tuned for speed, not durability (fsync, synchronous_commit and full_page_writes
 * off): its data is deleted when it stops anyway. Autovacuum is off too: the tests' databases live
 * seconds, and a worker vacuuming a seeded template made each CREATE DATABASE ... TEMPLATE wait
 * for it to be told to stop (600-800 ms instead of about 100 ms, for every test app on PostgreSQL;
 * issue 34). Whether the planner had statistics then depended on the worker's timing; now it never
 * has any it was not given by the test.
 */
import { execFile, execFileSync, type ExecFileException } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, chownSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export interface ThrowawayCluster {
  /** postgres://portal@127.0.0.1:PORT/postgres — superuser `portal`, trust auth */
  url: string;
  /** the data directory; gone after stop() */
  dir: string;
  /** Stops the server (immediate mode: nothing to keep) and removes the data directory. Idempotent. */
  stop(): Promise<void>;
}

export interface PostgresServer {
  url: string;
  /** Stops the throw-away cluster; a no-op when the server came from DATABASE_URL. */
  stop(): Promise<void>;
}

export interface TestDatabase {
  /** URL of the new database: same host, port, user and options as the server URL, path = name */
  url: string;
  name: string;
  /** DROP DATABASE ... WITH (FORCE), so connections a test forgot to close do not block it. */
  drop(): Promise<void>;
}

const SUPERUSER = 'portal';
const HOST = '127.0.0.1';

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The directory holding initdb and pg_ctl: $PG_BIN, else the newest Debian
 * /usr/lib/postgresql/<version>/bin, else wherever pg_ctl is on PATH, else null.
 */
export function findPgBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;

  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    // Numeric sort: "9.6" < "15" < "17", which a string sort gets wrong.
    const versions = readdirSync(debian)
      .filter((v) => /^\d+(\.\d+)?$/.test(v) && isExecutable(join(debian, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions.length > 0) return join(debian, versions[0], 'bin');
  }

  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const pgCtl = join(dir, 'pg_ctl');
    if (!isExecutable(pgCtl)) continue;
    // pg_ctl on PATH is often a symlink into the real bin folder; initdb may only live there.
    if (isExecutable(join(dir, 'initdb'))) return dir;
    const real = dirname(realpathSync(pgCtl));
    return isExecutable(join(real, 'initdb')) ? real : dir;
  }
  return null;
}

interface RunResult {
  ok: boolean;
  output: string;
}

/**
 * PostgreSQL refuses to run as root, and CI runs as root: there, initdb/pg_ctl run as the
 * `postgres` user. Anywhere else they run as the current user.
 */
const asRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

function command(bin: string, tool: string, args: string[]): [string, string[]] {
  const exe = join(bin, tool);
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
}

/** For error messages: the command as one could paste it into a shell to reproduce. */
const shellQuote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** PG* variables (PGDATA, PGPORT, PGHOST, ...) from the developer's shell must not steer the tools. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PG')) env[k] = v;
  return env;
}

/**
 * Runs a PostgreSQL tool; never throws, so callers can attach the output to a useful error.
 * cwd is the data directory because, under runuser, `postgres` may not be able to read the
 * caller's working directory (initdb complains about that).
 */
function run(bin: string, tool: string, args: string[], cwd: string): Promise<RunResult> {
  const [file, argv] = command(bin, tool, args);
  return new Promise((resolve) => {
    execFile(file, argv, { cwd, env: cleanEnv(), maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      const output = [`$ ${[file, ...argv].map(shellQuote).join(' ')}`, String(stdout).trim(), String(stderr).trim(), err ? failure(err) : '']
        .filter(Boolean)
        .join('\n');
      resolve({ ok: !err, output });
    });
  });
}

function failure(err: ExecFileException): string {
  if (err.killed) return '(timed out after 120 s)';
  if (typeof err.code === 'number') return `(exit code ${err.code})`;
  if (err.signal) return `(killed by ${err.signal})`;
  return `(${err.code ?? err.message})`; // e.g. ENOENT: runuser or the tool itself is missing
}

function logTail(dir: string, lines = 40): string {
  try {
    const text = readFileSync(join(dir, 'log'), 'utf8').trimEnd().split('\n');
    return text.slice(-lines).join('\n');
  } catch {
    return '(no log file)';
  }
}

function makeDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  // initdb insists on 0700 (or 0750) and on owning the folder.
  chmodSync(dir, 0o700);
  if (asRoot()) {
    let uid: number;
    let gid: number;
    try {
      uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    } catch {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        "running as root, but there is no `postgres` user to run PostgreSQL as (install Debian's postgresql package, or run the tests as a normal user)",
      );
    }
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** Starts a private PostgreSQL server in a new temporary folder. */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error("PostgreSQL binaries not found: set PG_BIN, install Debian's postgresql package, or set DATABASE_URL=postgres://...");
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!isExecutable(join(bin, tool))) throw new Error(`${join(bin, tool)} is missing or not executable (PG_BIN=${process.env.PG_BIN ?? 'unset'})`);
  }

  const dir = makeDataDir();
  const fail = (what: string, output: string): Error => {
    const message = `throw-away PostgreSQL: ${what}\n${output}\n--- ${join(dir, 'log')} (tail) ---\n${logTail(dir)}`;
    rmSync(dir, { recursive: true, force: true });
    return new Error(message);
  };

  const init = await run(bin, 'initdb', ['-D', dir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C'], dir);
  if (!init.ok) throw fail('initdb failed', init.output);

  // The port can be taken between freePort(HOST) and the server's bind(); retry with a new one.
  let port = 0;
  let started: RunResult | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    port = await freePort(HOST);
    const options = [
      `-p ${port}`,
      `-k ${dir}`, // the Unix socket lives in the private folder, not /var/run/postgresql
      `-c listen_addresses=${HOST}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c autovacuum=off',
      '-c max_connections=300',
    ].join(' ');
    started = await run(bin, 'pg_ctl', ['-D', dir, '-o', options, '-l', join(dir, 'log'), '-w', 'start'], dir);
    if (started.ok) break;
    if (!/already in use|could not bind/i.test(logTail(dir))) break;
  }
  if (!started?.ok) {
    // pg_ctl -w can give up while a postmaster is still coming up: make sure nothing is left running.
    await run(bin, 'pg_ctl', ['-D', dir, '-m', 'immediate', 'stop'], dir);
    throw fail('pg_ctl start failed', started?.output ?? '');
  }

  return {
    url: `postgres://${SUPERUSER}@${HOST}:${port}/postgres`,
    dir,
    stop: stopperOf(bin, dir, { mode: 'immediate', what: 'throw-away PostgreSQL', remove: true, timeoutMs: 30_000 }),
  };
}

/**
 * The stop() of a cluster this process started, which also runs if the process exits without
 * calling it (an uncaught error, process.exit() from a runner shutting down), so that no postmaster
 * and no temporary data are left behind; 'exit' handlers must be synchronous. (A SIGKILL can't be
 * caught: then the folder under the temp dir is all that is left to delete.) A failed stop() can
 * be tried again.
 */
function stopperOf(bin: string, dir: string, o: { mode: 'immediate' | 'fast'; what: string; remove: boolean; timeoutMs: number }): () => Promise<void> {
  const onExit = () => {
    try {
      const [file, argv] = command(bin, 'pg_ctl', ['-D', dir, '-m', o.mode, 'stop']);
      execFileSync(file, argv, { cwd: tmpdir(), env: cleanEnv(), stdio: 'ignore', timeout: o.timeoutMs });
    } catch {
      /* already stopped */
    }
    if (o.remove) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', onExit);
    try {
      await pgCtlStop(bin, dir, o.mode, o.what);
    } catch (err) {
      stopped = false; // let a later stop() try again
      process.once('exit', onExit);
      throw err;
    }
    if (o.remove) rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * Stops the server in `dir` (`immediate`: nothing to keep; `fast`: a checkpoint first). A server
 * that was already gone is fine; one still running afterwards is an error (its folder must not be
 * deleted under it).
 */
async function pgCtlStop(bin: string, dir: string, mode: 'immediate' | 'fast', label: string): Promise<void> {
  const res = await run(bin, 'pg_ctl', ['-D', dir, '-m', mode, 'stop'], dir);
  if (res.ok) return;
  const status = await run(bin, 'pg_ctl', ['-D', dir, 'status'], dir);
  if (/server is running/.test(status.output)) throw new Error(`${label}: pg_ctl stop failed\n${res.output}\n--- log (tail) ---\n${logTail(dir)}`);
}

/** A user-supplied server wins (e.g. a CI service container); otherwise start a throw-away one. */
export async function ensurePostgres(): Promise<PostgresServer> {
  const given = process.env.DATABASE_URL;
  if (given && /^postgres(ql)?:\/\//i.test(given)) return { url: given, stop: async () => {} };
  const cluster = await startThrowawayCluster();
  return { url: cluster.url, stop: cluster.stop };
}

let counter = 0;

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a fresh, empty database on the server at serverUrl (template0: no leftovers from
 * template1; C collation: the same sort order on every machine), or a copy of `template`.
 */
export async function createTestDatabase(serverUrl: string, prefix = 'portal_test', template = 'template0'): Promise<TestDatabase> {
  // pid + counter keep names unique across workers and within one; the random part guards
  // against a reused pid on a shared, long-lived server.
  const name = `${prefix}_${process.pid}_${++counter}_${randomBytes(4).toString('hex')}`.toLowerCase();
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid database name prefix ${JSON.stringify(prefix)}: use letters, digits and _`);
  if (name.length > 63) throw new Error(`database name ${name} is longer than PostgreSQL's 63-byte limit: use a shorter prefix`);

  // a template other than template0 is a database this run made and seeded (tests/server/seeded-template.ts): a copy of it
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`));

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      await withClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      dropped = true;
    },
  };
}

/**
 * Settings of a durable cluster (`startDurableCluster`): commits wait for the disk (fsync,
 * synchronous_commit and full_page_writes on, PostgreSQL's defaults), so writes cost what they
 * cost in production; the rest is a modest tuning for a machine of a few cores and tens of GiB
 * serving one application: a 1 GB buffer cache, WAL room for bulk loads without a checkpoint
 * every few seconds, a planner told the data is cached, and no JIT compilation (it pays only for
 * long analytic queries and adds tens of ms to short ones that cross its cost threshold).
 */
export const DURABLE_SETTINGS: Readonly<Record<string, string>> = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: '1GB',
  effective_cache_size: '8GB',
  work_mem: '16MB',
  maintenance_work_mem: '512MB',
  max_wal_size: '8GB',
  min_wal_size: '1GB',
  checkpoint_completion_target: '0.9',
  random_page_cost: '1.1',
  jit: 'off',
  max_connections: '200',
};

export interface DurableClusterOptions {
  /**
   * Keep the cluster's data here between runs: created (initdb) when it holds no cluster yet,
   * reused as it is otherwise, never deleted by stop(). Without it: a temporary folder that stop()
   * deletes.
   */
  dataDir?: string;
  /** settings over DURABLE_SETTINGS (e.g. { shared_buffers: '256MB' }) */
  settings?: Record<string, string>;
}

export interface DurableCluster extends ThrowawayCluster {
  /** the settings the server runs with (DURABLE_SETTINGS and the caller's) */
  settings: Record<string, string>;
  /** whether the data directory held a cluster already (its databases are still there) */
  reused: boolean;
  /** the postmaster's process id (its children are the server's other processes) */
  pid: number;
}

/**
 * Starts a PostgreSQL server that keeps its promises (benchmarks: a fair comparison with SQLite at
 * synchronous=FULL): the settings of DURABLE_SETTINGS, on a free 127.0.0.1 port, superuser
 * `portal` with trust auth, UTF-8 and the C locale like the throw-away one. stop() shuts it down
 * cleanly (fast mode: a checkpoint, nothing lost).
 */
export async function startDurableCluster(opts: DurableClusterOptions = {}): Promise<DurableCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error("PostgreSQL binaries not found: set PG_BIN, install Debian's postgresql package, or set DATABASE_URL=postgres://...");
  const settings = { ...DURABLE_SETTINGS, ...opts.settings };
  const temporary = !opts.dataDir;
  // absolute: the tools run with the data directory as their working directory
  const dir = opts.dataDir ? resolve(opts.dataDir) : makeDataDir();
  const reused = !temporary && existsSync(join(dir, 'PG_VERSION'));
  if (!temporary && !reused) {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o700);
    if (asRoot()) {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, id('-u'), id('-g'));
    }
  }
  const fail = (what: string, output: string): Error => {
    const message = `PostgreSQL (${dir}): ${what}\n${output}\n--- ${join(dir, 'log')} (tail) ---\n${logTail(dir)}`;
    if (temporary) rmSync(dir, { recursive: true, force: true });
    return new Error(message);
  };
  if (!reused) {
    const init = await run(bin, 'initdb', ['-D', dir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C'], dir);
    if (!init.ok) throw fail('initdb failed', init.output);
  }

  let port = 0;
  let started: RunResult | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    port = await freePort(HOST);
    const options = [`-p ${port}`, `-k ${dir}`, `-c listen_addresses=${HOST}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    started = await run(bin, 'pg_ctl', ['-D', dir, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '300', 'start'], dir);
    if (started.ok) break;
    if (!/already in use|could not bind/i.test(logTail(dir))) break;
  }
  if (!started?.ok) {
    await run(bin, 'pg_ctl', ['-D', dir, '-m', 'fast', 'stop'], dir);
    throw fail('pg_ctl start failed', started?.output ?? '');
  }
  const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);

  return {
    url: `postgres://${SUPERUSER}@${HOST}:${port}/postgres`,
    dir,
    settings,
    reused,
    pid,
    stop: stopperOf(bin, dir, { mode: 'fast', what: `PostgreSQL (${dir})`, remove: temporary, timeoutMs: 60_000 }),
  };
}
