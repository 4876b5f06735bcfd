/**
 * One portal server process for tests that need several processes over one database (the
 * cross-process concurrency tests). A test starts it with `startServeProcess()` (child_process.fork,
 * so the two talk over IPC); the child reads its AppOptions from PORTAL_SERVE_OPTIONS (JSON), calls
 * buildApp, listens on 127.0.0.1 on a port the kernel picks and sends `{ port }` to the parent.
 * It exits when the parent disconnects (the parent ended it, or the parent itself died: no
 * orphaned servers holding the database), or on SIGTERM.
 *
 * Run directly (by fork) it serves; imported, it only exports the parent-side helpers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppOptions } from '../../server/app.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { scaled } from './waits.ts';

/** What can cross the process boundary as JSON (no open db handle, no logger object). */
export type ServeOptions = Omit<AppOptions, 'db' | 'logger'> & { logger?: boolean };

export interface ServeProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Ends the process (SIGTERM, then SIGKILL after `graceMs`) and waits for its exit. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(SELF), '..', '..');

/**
 * Forks a server process and resolves once it listens. Rejects (and kills the child) if it exits
 * first or does not report a port within `timeoutMs`; the child's stderr is kept for that message.
 */
export function startServeProcess(options: ServeOptions, timeoutMs = scaled(60_000)): Promise<ServeProcess> {
  const child = fork(SELF, [], {
    cwd: ROOT,
    // tsx loads the TypeScript sources; vitest's own execArgv (its loaders) must not be inherited
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PORTAL_SERVE_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    // keep the tail only: enough to explain a failed start
    stderr = (stderr + d.toString()).slice(-8000);
  });
  const exited = new Promise<void>((res) => {
    if (child.exitCode !== null || child.signalCode !== null) res();
    else child.once('exit', () => res());
  });
  const stop = async (graceMs = 5000) => {
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.disconnect();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise<ServeProcess>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`serve-process did not listen within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve-process exited before listening (${signal ?? code})\n${stderr}`));
    });
    child.on('message', (m: unknown) => {
      const msg = m as { port?: number; error?: string };
      clearTimeout(timer);
      if (msg.error) {
        void stop(0);
        reject(new Error(`serve-process failed to start: ${msg.error}\n${stderr}`));
      } else if (typeof msg.port === 'number') {
        resolvePromise({ child, pid: child.pid!, port: msg.port, base: `http://127.0.0.1:${msg.port}`, stop });
      }
    });
  });
}

async function serve(): Promise<void> {
  const { buildApp } = await import('../../server/app.ts');
  const options = JSON.parse(process.env.PORTAL_SERVE_OPTIONS ?? '{}') as ServeOptions;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    // a hung close must not keep the process (and the database) alive
    setTimeout(() => process.exit(0), 3000).unref();
    try {
      await app?.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('disconnect', () => void close());
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  try {
    app = await buildApp(options);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    process.send!({ port: typeof addr === 'object' && addr ? addr.port : 0 });
  } catch (err) {
    // exit only once the message is out (process.send is asynchronous)
    const exit = () => process.exit(1);
    if (process.send) process.send({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) }, exit);
    else exit();
  }
}

// forked with an IPC channel and the options: this process is the server
if (process.send && process.env.PORTAL_SERVE_OPTIONS && resolve(process.argv[1] ?? '') === SELF) await serve();

/** A demo account's token from one of the processes, over HTTP (PDC01); throws with the answer when refused. */
export async function loginOver(proc: ServeProcess, username: string): Promise<string> {
  const r = await fetch(`${proc.base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password: DEMO_PASSWORD, warehouse: 'PDC01' }).toString(),
  });
  const body = (await r.json()) as { access_token?: string };
  if (r.status !== 200 || !body.access_token) throw new Error(`login ${username} over ${proc.base}: ${r.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
