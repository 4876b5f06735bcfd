/**
 * npm run dev: the developer loop. Codegen watches metadata/ and regenerates (tens of ms for one
 * changed file); the server restarts when its code or the generated files change (tsx watch);
 * Vite serves the admin with hot reload on http://127.0.0.1:5173, proxying the API to the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const children: ChildProcess[] = [];
function run(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const tag = (line: string) => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d: Buffer) => d.toString().split('\n').filter(Boolean).forEach((l) => console.log(tag(l))));
  child.on('exit', (code) => console.log(tag(`exited (${code})`)));
  children.push(child);
}
run('codegen', 'npx', ['tsx', 'codegen/cli.ts', '--watch']);
run('server', 'npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { PORT: port, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
run('admin', 'npx', ['vite', 'admin', '--host', '127.0.0.1'], { PORT: port });
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
