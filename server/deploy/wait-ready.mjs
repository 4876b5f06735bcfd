/* global process, fetch, AbortSignal, console, setTimeout */
// Waits until the portal on HOST:PORT answers GET /readyz with 200 (at most WAIT_READY_SECONDS,
// default 120), then exits 0; else exits 1. The systemd unit runs it after the start, so
// `systemctl start` (and a deploy script) returns only once the portal can serve. Plain
// JavaScript: it runs where only the compiled server is (no tsx).
const host = !process.env.HOST || process.env.HOST === '0.0.0.0' ? '127.0.0.1' : process.env.HOST;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? 3000}/readyz`;
const deadline = Date.now() + Number(process.env.WAIT_READY_SECONDS ?? 120) * 1000;
for (;;) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (r.status === 200) process.exit(0);
  } catch {
    // not listening yet
  }
  if (Date.now() > deadline) {
    console.error(`${url} did not answer ready`);
    process.exit(1);
  }
  await new Promise((res) => setTimeout(res, 500));
}
