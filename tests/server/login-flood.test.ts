/**
 * A login flood does not take sign-in down (issue 25 point 1): password hashing at login runs
 * through a bounded pool (server/auth/hash-pool.ts). Unknown user IDs cost no hash (their answer
 * waits as long as one would take); a fixed number of hashes run at a time; a full queue or a wait
 * past its deadline answers 503 with Retry-After, alike for known and unknown IDs. No timing is
 * asserted here: the flood's effect on normal logins is measured in the bench (tests/bench/login-flood.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, tokenResponse, type TestApp } from './helpers.ts';
import { HashPool, HashPoolBusy } from '../../server/auth/hash-pool.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';

let t: TestApp;
const pool = new HashPool({ size: 2, maxQueue: 4, maxWaitMs: 60_000 });
let address = 0;

beforeAll(async () => {
  t = await build({ app: { hashPool: pool } });
});
afterAll(async () => {
  await t?.close();
});

const attempt = (username: string, password: string, lang = 'en-US') =>
  t.app.inject({
    method: 'POST',
    url: '/connect/token',
    remoteAddress: `10.7.${(++address >> 8) & 255}.${address & 255}`,
    payload: { grant_type: 'password', username, password, warehouse: 'PDC01', lang },
  });

/** A task that holds its slot until released. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('the hash pool', () => {
  it('runs at most `size` hashes at a time, queues `maxQueue`, refuses the rest at once; a wait past its deadline is refused', async () => {
    const p = new HashPool({ size: 2, maxQueue: 2, maxWaitMs: 60_000 });
    const gates = Array.from({ length: 6 }, gate);
    const runs = gates.map((g) =>
      p
        .run(() => g.promise)
        .then(
          () => 'done',
          (e: unknown) => (e instanceof HashPoolBusy ? 'busy' : 'error'),
        ),
    );
    // the last two found the queue full
    expect(await Promise.all(runs.slice(4))).toEqual(['busy', 'busy']);
    for (const g of gates) g.open();
    expect(await Promise.all(runs.slice(0, 4))).toEqual(['done', 'done', 'done', 'done']);
    expect(p.stats).toMatchObject({ hashes: 4, refused: 2, peakRunning: 2 });

    const short = new HashPool({ size: 1, maxQueue: 5, maxWaitMs: 30 });
    const hold = gate();
    const first = short.run(() => hold.promise);
    await expect(short.run(async () => 'never')).rejects.toBeInstanceOf(HashPoolBusy);
    hold.open();
    await first;
    expect(short.stats.refused).toBe(1);
  });
});

describe('logins beside a flood of unknown user IDs', () => {
  it('unknown IDs cost no hash (one calibration per process), normal logins go through', async () => {
    // the first unknown ID measures a hash (no real login has run yet in this process)
    expect((await attempt('nobody-first', 'whatever-1')).json().code).toBe('error.loginFailed');
    const before = { ...pool.stats };
    const flood = Array.from({ length: 40 }, (_, i) => attempt(`flood-${i}`, 'whatever-1'));
    const normal = ['sup01', 'staff01', 'supadmin'].map((u) => attempt(u, DEMO_PASSWORD));
    const answers = await Promise.all([...flood, ...normal]);
    expect(answers.slice(0, 40).map((r) => r.json().code)).toEqual(Array(40).fill('error.loginFailed'));
    expect(answers.slice(40).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    // three hashes for three real logins; none for the forty IDs that do not exist
    expect(pool.stats.hashes - before.hashes).toBe(3);
    expect(pool.stats.imitated - before.imitated).toBe(40);
    expect(pool.stats.peakRunning).toBeLessThanOrEqual(2);
  });

  it('a full pool answers 503 with Retry-After, for a known and an unknown user ID alike, in both languages', async () => {
    const held = Array.from({ length: 6 }, gate);
    // two running and four waiting: the pool is full
    const holders = held.map((g) => pool.run(() => g.promise));
    const answers = [
      await attempt('sup01', 'wrong-password-1'),
      await attempt('nobody-at-all', 'wrong-password-1'),
      await attempt('sup02', DEMO_PASSWORD, 'zh-CN'),
    ];
    for (const r of answers) {
      expect(r.statusCode).toBe(503);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json()).toMatchObject({ error: 'temporarily_unavailable', code: 'error.loginBusy' });
    }
    expect(answers[0].json().message).toMatch(/try again in \d+ seconds/);
    expect(answers[2].json().message).toMatch(/秒后重试/);
    // known and unknown say the same
    expect(answers[1].json().message).toBe(answers[0].json().message);
    for (const g of held) g.open();
    await Promise.all(holders);
    expect((await tokenResponse(t.app, 'sup02')).statusCode).toBe(200);
  });
});
