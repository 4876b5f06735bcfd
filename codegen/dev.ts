/**
 * npm run dev: the developer loop.
 *  - codegen watches metadata/ and regenerates (tens of ms for one changed file);
 *  - the dev server (server/dev.ts) reloads the generated metadata in place, without a restart;
 *    tsx watch restarts it only when server code changes (server/generated/ is not its business);
 *  - Vite serves the admin with hot reload on VITE_PORT (default 5173), proxying the API to the dev
 *    server on PORT (default 3000); after a metadata edit the page swaps the new texts at once, and
 *    the new screens once the API serves the same metadata (admin/vite.config.ts).
 *  - tsc --watch type-checks hooks and handlers on every save (codegen/dev-typecheck.ts), in the
 *    terminal and the browser's error overlay, at a lower priority than the rest of the loop.
 * Codegen writes once before the others start, so they never read generated files mid-write.
 * Ctrl-C (or SIGTERM) stops them all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchTypes } from './dev-typecheck.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const port = process.env.PORT ?? '3000';
const vitePort = process.env.VITE_PORT ?? '5173';

const children: ChildProcess[] = [];
/** Starts a child in a process group of its own (stopping it ends its children too); resolves on the first line `ready` matches. */
function run(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, ready?: RegExp): Promise<void> {
  const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached: true });
  children.push(child);
  const tag = (line: string) => `[${name}] ${line}`;
  return new Promise((resolvePromise) => {
    if (!ready) resolvePromise();
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (d: Buffer) =>
        d
          .toString()
          .split('\n')
          .filter(Boolean)
          .forEach((l) => {
            console.log(tag(l));
            if (ready?.test(l)) resolvePromise();
          }),
      );
    }
    child.on('exit', (code) => {
      console.log(tag(`exited (${code})`));
      resolvePromise();
    });
  });
}

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

await run('codegen', bin('tsx'), ['codegen/cli.ts', '--watch'], {}, /^codegen: (watching|metadata has)/);
if (!stopping) {
  void run('server', bin('tsx'), ['watch', '--clear-screen=false', '--exclude', 'server/generated/**', 'server/dev.ts'], {
    PORT: port,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  void run('admin', bin('vite'), ['admin', '--host', '127.0.0.1'], { PORT: port, VITE_PORT: vitePort });
  // hooks and handlers type-checked on every save (codegen/dev-typecheck.ts): terminal and browser overlay
  children.push(
    watchTypes(root, (r) =>
      console.log(
        r.errors.length
          ? `[types] ${r.errors.length} type error(s) in hooks or handlers:\n${r.errors.map((e) => `[types]   ${e}`).join('\n')}`
          : '[types] hooks and handlers: no type errors',
      ),
    ),
  );
}
