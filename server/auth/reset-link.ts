/**
 * A one-time password-reset link, issued in the caller's transaction: the self-service "forgot
 * password" (password-reset.ts) and any other code that wants a user to set a new password
 * themselves (an administrator's "reset password" action, say) call `issueResetLink(tx, accountId)`.
 *
 * The token is 256 random bits (base64url, 43 characters); only its SHA-256 is stored, so a copy
 * of the database opens no account. It expires after `app.password.resetLinkMinutes` (30), works
 * once, and a newer link voids the older ones of the account. The mail (`passwordReset`, the
 * account's language) carries the link as a portal path the sender turns into an address under
 * PORTAL_PUBLIC_URL; it goes out after the transaction commits, or not at all.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/types.ts';
import { metadata } from '../generated/index.ts';
import { queueMail } from '../mail/queue.ts';
import { resetPasswordPath } from '../mail/links.ts';

export const RESET_LINK_MINUTES = metadata.app.password.resetLinkMinutes ?? 30;

export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export async function issueResetLink(tx: Queryable, accountId: number, now = new Date()): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  // one live link per account: a newer one voids the older
  await tx.run(`UPDATE _password_reset_tokens SET used_at = ? WHERE account_id = ? AND used_at IS NULL`, [at, accountId]);
  await tx.run(`INSERT INTO _password_reset_tokens (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`, [
    tokenHash(token),
    accountId,
    at,
    new Date(now.getTime() + RESET_LINK_MINUTES * 60_000).toISOString(),
  ]);
  await queueMail(tx, { template: 'passwordReset', accountId, vars: { resetLink: resetPasswordPath(token), expiresInMinutes: RESET_LINK_MINUTES } }, now);
}
