/** The login-flood step's target (issue 25 point 1), judged by report.ts: a normal login's p95 beside the flood at most 2x its p95 alone. */
import type { Target } from './report.ts';

interface FloodSetup {
  alone: { p95Ms: number };
  withFlood: { p95Ms: number };
  flood: { requests: number };
  ratioP95: number;
}

export function loginFloodTarget(step: { status?: string; setups?: Record<string, FloodSetup | { status: string }> } | undefined, full: boolean): Target {
  const measured = Object.entries(step?.setups ?? {}).filter((e): e is [string, FloodSetup] => 'ratioP95' in e[1]);
  return {
    id: 'login.flood',
    what: 'normal logins beside a flood of made-up user IDs from rotating addresses, p95 vs p95 without the flood',
    target: '<= 2x',
    measured:
      step?.status === 'ok'
        ? measured.map(([id, x]) => `${id} ${x.ratioP95}x (${x.withFlood.p95Ms} vs ${x.alone.p95Ms} ms, ${x.flood.requests} flood requests)`).join('; ')
        : (step?.status ?? 'not run'),
    met: step?.status === 'ok' && full && measured.length ? measured.every(([, x]) => x.ratioP95 <= 2) : null,
  };
}
