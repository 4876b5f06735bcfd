/**
 * The password-expiry reminder job: an account whose password expires within
 * `app.password.expiryWarnDays` days (it expires `expiryDays` after `passwordChangedAt`) gets the
 * `passwordExpiry` mail, once per expiry. "Expires in N days" counts as the login's notice counts
 * it (routes/connect.ts), so the mail and the notice at login agree.
 *
 * Safe with several processes: each scans, and the mail is queued with the once-key
 * `passwordExpiry|<account>|<passwordChangedAt>` (queue.ts), which only the first insert gets. A
 * new password changes the key, so the next expiry is reminded again.
 */
import type { Db } from '../db/types.ts';
import { metadata } from '../generated/index.ts';
import { queueMail } from './queue.ts';

const DAY = 86_400_000;
const NORMAL = metadata.codeTables.accountStatus.values.find((v) => v.key === 'normal')!.code;

/** yyyy-MM-dd in the server's time zone (as the export writes dates by default). */
export function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** What the reminder of a password changed at `changedAt` says at `now`, or null when none is due. */
export function expiryReminder(changedAt: string, now: Date): { expiryDate: string; daysLeft: number } | null {
  const { expiryDays, expiryWarnDays } = metadata.app.password;
  const changed = Date.parse(changedAt);
  if (Number.isNaN(changed)) return null;
  const daysLeft = expiryDays - Math.floor((now.getTime() - changed) / DAY);
  if (daysLeft < 1 || daysLeft > expiryWarnDays) return null;
  return { expiryDate: localDate(new Date(changed + expiryDays * DAY)), daysLeft };
}

/** Queues the reminders due at `now`; answers how many were queued (reminders queued before are not again). */
export async function queueExpiryReminders(db: Db, now = new Date()): Promise<number> {
  const { expiryDays, expiryWarnDays } = metadata.app.password;
  if (expiryWarnDays < 1) return 0;
  // changed within (now - expiryDays, now - (expiryDays - warnDays)]: 1 to warnDays days left
  const from = new Date(now.getTime() - expiryDays * DAY).toISOString();
  const to = new Date(now.getTime() - (expiryDays - expiryWarnDays) * DAY).toISOString();
  const due = await db.all<{ id: number; changedAt: string }>(
    `SELECT id, password_changed_at AS "changedAt" FROM account WHERE status = ? AND password_changed_at > ? AND password_changed_at <= ? ORDER BY id`,
    [NORMAL, from, to],
  );
  let queued = 0;
  for (const a of due) {
    const changedAt = String(a.changedAt);
    const reminder = expiryReminder(changedAt, now);
    if (!reminder) continue;
    const id = Number(a.id);
    const first = await db.transaction((tx) =>
      queueMail(tx, { template: 'passwordExpiry', accountId: id, vars: reminder, onceKey: `passwordExpiry|${id}|${changedAt}` }, now),
    );
    if (first) queued++;
  }
  return queued;
}
