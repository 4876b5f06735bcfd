/**
 * Starts tests/e2e/second-server.ts (a second server process over the e2e database) on the port
 * after the e2e server's, waits until it answers, and stops it again: a spec then has two processes
 * serving one database, as PORTAL_WORKERS=2 has, but can tell which one it talks to.
 */
import { spawn } from 'node:child_process';
import { e2ePort } from '../e2e-port.ts';

export interface SecondServer {
  url: string;
  stop(): Promise<void>;
}

export async function startSecondServer(): Promise<SecondServer> {
  const port = e2ePort() + 1;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/second-server.ts'], {
    env: { ...process.env, SECOND_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  // a cold start compiles the server with tsx and opens the database: up to a minute on a loaded machine
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the second server stopped: ${stderr.slice(-2000)}`);
    const up = await fetch(`${url}/api/warehouses`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) return { url, stop };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the second server did not answer: ${stderr.slice(-2000)}`);
}
