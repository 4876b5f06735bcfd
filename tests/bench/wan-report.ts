/**
 * Issue 21's targets: the `wan` step's (tests/bench/wan.ts), judged on the "after" server (as
 * shipped) on slow 4G with the "before" figures beside them, and the sweep's contains queries with
 * and without their trigram index; judged and printed by report.ts.
 */
import type { Target } from './report.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;
const n = (x: unknown, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? (Math.round(x * 10 ** d) / 10 ** d).toLocaleString('en-US') : '–');

const STEP_LABELS = {
  signIn: 'sign-in page ready',
  login: 'log in to the dashboard',
  orderListNewDocument: '500-row order list, new document',
  orderListFromMenu: '500-row order list, from the menu',
} as const;

export function wanTargets(s: Record<string, Any>, full: boolean): Target[] {
  const w = s.wan;
  const ok = w?.status === 'ok';
  const notRun = w?.note ?? w?.status ?? 'not run';
  const slow = ok ? w.summary['slow4g.after'] : undefined;
  const slowBefore = ok ? w.summary['slow4g.before'] : undefined;
  const time = (id: string, step: keyof typeof STEP_LABELS, limit: number): Target => ({
    id,
    what: `slow 4G (1.6 Mbit/s, 150 ms): ${STEP_LABELS[step]}`,
    target: `<= ${n(limit / 1000, 1)} s`,
    measured: slow
      ? `${n(slow[step].ms, 0)} ms, ${n(slow[step].kB)} kB on the wire (before: ${n(slowBefore?.[step].ms, 0)} ms, ${n(slowBefore?.[step].kB)} kB)`
      : ok
        ? 'smoke: slow 4G not run'
        : notRun,
    met: slow && full ? slow[step].ms <= limit : null,
  });
  const page = ok ? w.pageBytes : undefined;
  const cpu = ok ? w.compressionCpu : undefined;
  const c = s.sweep?.status === 'ok' ? s.sweep.contains : undefined;
  return [
    {
      id: 'sweep.contains.p95',
      what: "the sweep's contains queries (page + count), engine time with the trigram index vs the plain LIKE",
      target: '<= 10 ms at p95, the same rows',
      measured: c?.withIndexMs
        ? `p95 ${n(c.withIndexMs.p95, 2)} ms, max ${n(c.withIndexMs.max, 2)} ms (without the index: p95 ${n(c.withoutIndexMs.p95, 2)} ms, max ${n(c.withoutIndexMs.max, 2)} ms); ${c.cases} queries, ${c.different.length} with other rows`
        : (s.sweep?.status ?? 'not run'),
      met: c?.withIndexMs ? c.different.length === 0 && (!full || c.withIndexMs.p95 <= 10) : null,
    },
    {
      id: 'wan.page.bytes',
      what: '500-row order page on the wire (lean page, brotli)',
      target: '<= 40 kB',
      measured: page
        ? `${n(page.lean.br / 1000)} kB (gzip ${n(page.lean.gzip / 1000)} kB; plain ${n(page.lean.identity / 1000)} kB; full page plain ${n(page.full.identity / 1000)} kB, brotli ${n(page.full.br / 1000)} kB)`
        : notRun,
      met: page ? page.lean.br <= 40_000 : null,
    },
    time('wan.slow4g.signIn', 'signIn', 2500),
    time('wan.slow4g.login', 'login', 2500),
    time('wan.slow4g.orderList', 'orderListNewDocument', 3000),
    {
      id: 'wan.compression.cpu',
      what: 'server CPU per lean 500-row page, compressed vs not',
      target: '<= 1.15x',
      measured: cpu ? `${n(cpu.ratio, 3)}x (${n(cpu.cpuMsPerPage.compressed, 2)} vs ${n(cpu.cpuMsPerPage.identity, 2)} ms)` : notRun,
      met: cpu && full ? cpu.ratio <= 1.15 : null,
    },
  ];
}

/** The table: per link and server, each step's time and bytes. */
export function wanSection(s: Record<string, Any>): string[] {
  const w = s.wan;
  if (w?.status !== 'ok') return [];
  const out = ['', `WAN (Chromium network emulation, median of ${w.rounds} visit(s), fresh browser context each; "before" = compression off):`, ''];
  out.push(`| link | server | ${Object.values(STEP_LABELS).join(' | ')} |`);
  out.push(
    `|---|---|${Object.keys(STEP_LABELS)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const [key, v] of Object.entries(w.summary as Record<string, Any>)) {
    const [link, server] = key.split('.');
    out.push(
      `| ${link} | ${server} | ${Object.keys(STEP_LABELS)
        .map((k) => `${n(v[k].ms, 0)} ms / ${n(v[k].kB)} kB`)
        .join(' | ')} |`,
    );
  }
  out.push('');
  return out;
}
