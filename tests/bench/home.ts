/**
 * The home page's API calls on a large database, timed in the server (app.inject: routing,
 * checks, SQL, serialisation; no network), run by itself:
 *   npx tsx tests/bench/home.ts --db data/bench/portal-1667.db     (SQLite, seeded by npm run bench or npm run seed)
 *   npx tsx tests/bench/home.ts --url postgres://...               (PostgreSQL)
 * For a supplier (sup01) and internal staff (staff01): the work tiles, the charts, the notification feed and
 * the notice centre's list, each N times after a warm-up; prints median and 95th percentile per
 * call and the sum of the medians (the target: at most 50 ms together).
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../../server/app.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, url: { type: 'string' }, runs: { type: 'string', default: '20' } } });
const runs = Number(values.runs);
const app = await buildApp({
  ...(values.url ? { databaseUrl: values.url } : { dbFile: values.db ?? 'data/bench/portal-1667.db' }),
  jwtSecret: 'bench-secret-0123456789-0123456789-0123456789',
  loginRateLimit: 1e6,
  writesPerMinute: 1e6,
  accountAttemptsPerMinute: 1e6,
  logger: false,
});

async function token(user: string): Promise<string> {
  const r = await app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: user, password: 'demo2026A', warehouse: 'PDC01' }).toString(),
  });
  if (r.statusCode !== 200) throw new Error(`login ${user}: ${r.statusCode} ${r.body}`);
  return r.json().access_token as string;
}

const notices = `/api/notices?${new URLSearchParams({ filter: JSON.stringify({ status: '0' }), range: '[0,49]', sort: JSON.stringify(['publishedAt', 'DESC']) })}`;
const calls = ['/api/home/tiles', '/api/home/charts', '/api/notifications', notices];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];

for (const user of ['sup01', 'staff01']) {
  const tok = await token(user);
  let total = 0;
  const lines: string[] = [];
  for (const url of calls) {
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = process.hrtime.bigint();
      const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tok}` } });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
      if (i >= 3) times.push(ms);
      if (i === 0 && url === '/api/home/tiles')
        lines.push(
          `  tiles: ${(r.json().tiles as { key: string; count: number; more: boolean }[]).map((x) => `${x.key}=${x.count}${x.more ? '+' : ''}`).join(' ')}`,
        );
    }
    total += pct(times, 0.5);
    lines.push(`  ${url.split('?')[0].padEnd(22)} median ${pct(times, 0.5).toFixed(1)} ms  p95 ${pct(times, 0.95).toFixed(1)} ms`);
  }
  console.log(`${user} (${values.url ? 'PostgreSQL' : 'SQLite'}, ${runs} runs each)`);
  for (const l of lines) console.log(l);
  console.log(`  the home page's calls together (sum of medians): ${total.toFixed(1)} ms`);
}
await app.close();
