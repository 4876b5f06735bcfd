/**
 * The port of the browser suite's server. E2E_PORT when it is set; otherwise a free one, chosen
 * once in Playwright's runner (playwright.config.ts calls this first) and written to E2E_PORT, which
 * the runner's workers and the web server inherit. So two suites on one machine (a developer's
 * beside CI's, or two clones) never meet on a port or in the per-port files of e2e-files.ts and
 * inbox.ts. The second server process (pages/second-server.ts) listens on the next port, so the
 * pair must be free.
 */
import { execFileSync } from 'node:child_process';

/** Prints a port P such that P and P + 1 both accept a listener on 127.0.0.1 right now. */
const FIND_FREE_PAIR = `
const net = require('node:net');
const listen = (port) => new Promise((ok) => {
  const s = net.createServer();
  s.once('error', () => ok(null));
  s.listen(port, '127.0.0.1', () => ok(s));
});
(async () => {
  for (let i = 0; i < 50; i++) {
    const a = await listen(0);
    const p = a.address().port;
    const b = p < 65535 ? await listen(p + 1) : null;
    a.close();
    if (b) { b.close(); process.stdout.write(String(p)); return; }
  }
  process.exit(1);
})();
`;

/**
 * A port P such that P and P + 1 are free now and neither is in `taken` (ports already handed to
 * another browser pass of the same run, whose server may not listen yet). Synchronous, because
 * Playwright reads its config synchronously; about 50 ms.
 */
export function freePortPair(taken: readonly number[] = []): number {
  for (let i = 0; i < 20; i++) {
    const port = Number(execFileSync(process.execPath, ['-e', FIND_FREE_PAIR], { encoding: 'utf8' }).trim());
    if (!(port > 0)) break;
    if (!taken.includes(port) && !taken.includes(port + 1)) return port;
  }
  throw new Error('e2ePort: found no free pair of ports on 127.0.0.1');
}

export function e2ePort(): number {
  const set = Number(process.env.E2E_PORT);
  if (Number.isInteger(set) && set > 0) return set;
  const port = freePortPair();
  process.env.E2E_PORT = String(port);
  return port;
}
