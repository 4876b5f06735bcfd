/**
 * Failed logins: a throttle per user ID with growing delays, then the spec's lock (README Security,
 * "Failed logins"; ASVS 5.0 6.1.1, 6.3.1). Five wrong passwords used to lock any account, from
 * anywhere, in seconds; now:
 *
 * - every attempt on a user ID is counted as a failure BEFORE its password (or second-factor code)
 *   is checked, in one atomic statement that refuses while the ID must wait. So parallel attempts
 *   cannot slip past the delay: at most `freeAttempts` of them are let through at once;
 * - from the `freeAttempts`-th failure in a row on, the ID refuses attempts for `delaySeconds`,
 *   doubled with every further failure up to `maxDelaySeconds` (a refused attempt is answered
 *   429 error.loginThrottled with the seconds left, and is not counted);
 * - the failure that reaches `maxFailures` locks an existing account (status 601, the spec's
 *   message) and queues the lockoutNotice e-mail to its holder, once per lock. With the shipped
 *   metadata (3 free, 30 s doubling to 30 min, lock at 10) a third party needs about an hour to
 *   lock an account; its holder can unlock it with the password-reset e-mail;
 * - a right password takes its attempt back (refund); a completed login, an administrator's
 *   unlock or password reset, and a self-service reset clear the count (clearLoginFailures).
 *
 * The counter is kept per user ID whether or not the account exists, keyed by a hash of the
 * lower-cased ID, so an unknown ID answers exactly like an existing one (codes, delays, seconds):
 * no enumeration. All state is in the database (_login_failures), shared by every process.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/types.ts';
import type { AppConstants } from '../../codegen/runtime/model.ts';
import { queueMail } from '../mail/queue.ts';

export type LockoutPolicy = AppConstants['lockout'];

/** The key of a user ID's counter: what the login compares (trimmed, case-insensitive), hashed. */
export const failureKey = (userId: string): string => createHash('sha256').update(userId.trim().toLowerCase()).digest('hex');

/** How long a user ID must wait after its `failures`-th failure in a row (milliseconds). */
export function delayAfter(p: LockoutPolicy, failures: number): number {
  if (failures < Math.max(1, p.freeAttempts)) return 0;
  const doublings = failures - Math.max(1, p.freeAttempts);
  // 2^doublings without overflow: past 30 doublings the cap has long been reached
  return Math.min(p.maxDelaySeconds, p.delaySeconds * 2 ** Math.min(doublings, 30)) * 1000;
}

/** `sql` with `:name` placeholders -> `?` placeholders and their values in order. */
function named(sql: string, values: Record<string, unknown>): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const out = sql.replace(/:(\w+)/g, (_, n: string) => {
    if (!(n in values)) throw new Error(`no value for :${n}`);
    params.push(values[n]);
    return '?';
  });
  return { sql: out, params };
}

/** Counters untouched this long are deleted now and then (per process). */
const PURGE_EVERY_MS = 10 * 60_000;

export interface ClaimResult {
  /** false: the ID must wait; nothing was counted */
  ok: boolean;
  /** failures in a row, this attempt included (when ok) */
  failures: number;
  /** when refused: whole seconds until the next attempt is taken */
  retryAfterSeconds: number;
}

export class LoginFailures {
  private readonly upsert: string;
  private purgedAt = 0;

  constructor(
    private readonly db: Db,
    readonly policy: LockoutPolicy,
    // read at every call (not Date.now itself): tests set the clock
    private readonly clock: () => number = () => Date.now(),
  ) {
    // the count after this failure: 1 again when the last failure is older than resetAfterSeconds
    const next = `(CASE WHEN _login_failures.last_failure_at <= CAST(:stale AS BIGINT) THEN 1 ELSE _login_failures.failures + 1 END)`;
    // the wait that count earns, as a CASE ladder (the delays are constants of the policy)
    const steps: string[] = [];
    let capFrom = Math.max(1, policy.freeAttempts);
    for (; delayAfter(policy, capFrom) < policy.maxDelaySeconds * 1000; capFrom++) steps.push(`WHEN ${next} = ${capFrom} THEN ${delayAfter(policy, capFrom)}`);
    const wait = `(CASE WHEN ${next} >= ${capFrom} THEN ${policy.maxDelaySeconds * 1000} ${steps.join(' ')} ELSE 0 END)`;
    // a free attempt blocks nobody: blocked_until 0, not "now + 0". Each attempt reads its clock
    // before its statement waits for the row, so under a race a later statement may carry an
    // earlier `now` than the one before it; "now + 0" written by the first would then refuse the
    // second (issue 25 point 11: 2 free attempts checked instead of 3). Guaranteed under any race:
    // exactly the free attempts are checked, every later one waits.
    this.upsert = `INSERT INTO _login_failures (key, failures, last_failure_at, blocked_until) VALUES (:key, 1, CAST(:now AS BIGINT), CAST(:firstBlock AS BIGINT))
      ON CONFLICT (key) DO UPDATE SET failures = ${next}, last_failure_at = CAST(:now AS BIGINT),
        blocked_until = CASE WHEN ${wait} = 0 THEN 0 ELSE CAST(:now AS BIGINT) + ${wait} END`;
  }

  private async count(userId: string, respectDelay: boolean): Promise<ClaimResult> {
    const now = this.clock();
    const key = failureKey(userId);
    const q = named(`${this.upsert}${respectDelay ? ' WHERE _login_failures.blocked_until <= CAST(:now AS BIGINT)' : ''} RETURNING failures`, {
      key,
      now,
      stale: now - this.policy.resetAfterSeconds * 1000,
      firstBlock: delayAfter(this.policy, 1) === 0 ? 0 : now + delayAfter(this.policy, 1),
    });
    // a counter lost in a crash does little harm: no wait for the disk (as the rate limits)
    const row = await this.db.counterGet<{ failures: number }>(q.sql, q.params);
    await this.purge(now);
    if (row) return { ok: true, failures: Number(row.failures), retryAfterSeconds: 0 };
    const blocked = await this.db.get<{ until: number }>(`SELECT blocked_until AS "until" FROM _login_failures WHERE key = ?`, [key]);
    return { ok: false, failures: 0, retryAfterSeconds: Math.max(1, Math.ceil((Number(blocked?.until ?? now) - now) / 1000)) };
  }

  /**
   * Before a password or a code is checked: counts the attempt as a failure in advance, unless the
   * user ID must still wait (then nothing is counted and the answer says how long).
   */
  claim(userId: string): Promise<ClaimResult> {
    return this.count(userId, true);
  }

  /** A wrong password or code given outside the login (a logged-in call): counted, no wait asked. */
  async record(userId: string): Promise<number> {
    return (await this.count(userId, false)).failures;
  }

  /** The password or code was right: the claimed attempt was no failure, and the next one need not wait. */
  async refund(userId: string): Promise<void> {
    await this.db.counterGet(
      `UPDATE _login_failures SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END, blocked_until = 0 WHERE key = ? RETURNING failures`,
      [failureKey(userId)],
    );
  }

  private async purge(now: number): Promise<void> {
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    await this.db.run(`DELETE FROM _login_failures WHERE last_failure_at < ? AND blocked_until < ?`, [now - this.policy.resetAfterSeconds * 1000, now]);
  }

  /**
   * A counted failure of an existing account: the account shows the count, and the failure that
   * reaches maxFailures locks it (only from a state that may log in, so a disabled account stays
   * disabled) and queues the lockoutNotice e-mail, in one transaction: once per lock, whichever
   * process counted it. Answers whether this failure locked the account.
   */
  async failAccount(accountId: number, userId: string, failures: number, statuses: { mayLogIn: readonly string[]; locked: string }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // failures counted side by side get here in any order: the account shows the count as it
      // stands now (the user ID's counter), not this failure's place in it
      await tx.run(`UPDATE account SET failed_logins = COALESCE((SELECT failures FROM _login_failures WHERE key = ?), ?) WHERE id = ?`, [
        failureKey(userId),
        failures,
        accountId,
      ]);
      if (failures < this.policy.maxFailures) return false;
      const before = await tx.get<{ status: string }>(`SELECT a.status AS status FROM account a WHERE a.id = ?${tx.dialect.forUpdate('a')}`, [accountId]);
      if (!before || !statuses.mayLogIn.includes(before.status)) return false;
      await tx.run(`UPDATE account SET status = ? WHERE id = ?`, [statuses.locked, accountId]);
      const at = new Date(this.clock()).toISOString();
      // no user did it: the audit row names nobody (user_id NULL) and says what happened
      await tx.run(
        `INSERT INTO audit_entry (at, user_id, warehouse_code, resource, record_id, operation, changes) VALUES (?, NULL, NULL, 'accounts', ?, 'lockout', ?)`,
        [at, accountId, JSON.stringify({ status: [before.status, statuses.locked], failedLogins: [null, failures] })],
      );
      await queueMail(tx, { template: 'lockoutNotice', accountId }, new Date(this.clock()));
      return true;
    });
  }
}

/**
 * The user ID's failure count starts again: after a completed login, and when an administrator
 * unlocks the account or resets its password, or its holder resets it by e-mail (server/mail/),
 * in that change's transaction.
 */
export async function clearLoginFailures(q: Queryable, userId: string): Promise<void> {
  await q.run(`DELETE FROM _login_failures WHERE key = ?`, [failureKey(userId)]);
}
