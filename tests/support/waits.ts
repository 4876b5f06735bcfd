/**
 * How long a test waits for something that is coming (a server listening, a worker replaced, a
 * screen rendered): a limit that holds on a quiet machine, times a factor for a busy one. The
 * factor is TEST_WAIT_FACTOR when set (CI or a person raises it: `TEST_WAIT_FACTOR=3 npm test`);
 * otherwise it follows the machine's load when the test process starts (the 1-minute load average
 * per CPU, between 1 and 4): at load 25 on 2 CPUs a server process takes minutes to start, and a
 * fixed 60 s limit failed tests that were right. Tests wait on the thing itself and use these only
 * as the point of giving up: never as a sleep.
 */
import { cpus, loadavg } from 'node:os';

function factor(): number {
  const set = Number(process.env.TEST_WAIT_FACTOR);
  if (process.env.TEST_WAIT_FACTOR && Number.isFinite(set) && set >= 1) return set;
  const perCpu = loadavg()[0] / Math.max(1, cpus().length);
  return Math.min(4, Math.max(1, perCpu));
}

export const WAIT_FACTOR = factor();

/** A waiting limit, scaled for the machine. */
export const scaled = (ms: number): number => Math.round(ms * WAIT_FACTOR);
