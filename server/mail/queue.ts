/**
 * The one way server code asks for an e-mail: `queueMail(tx, …)` inside the transaction of the change
 * that causes it (an account created, unlocked, a password reset requested). The row waits in the
 * private `_mail_queue` table until the mail sender (server/mail/) renders the account's template in
 * the account's language and delivers it; a rolled-back change leaves no row, so nothing is sent.
 */
import type { Queryable } from '../db/types.ts';

/** The notification e-mails (templates in metadata, both languages). */
export type MailTemplate = 'registration' | 'passwordReset' | 'unlock' | 'passwordExpiry' | 'lockoutNotice';

export interface MailRequest {
  template: MailTemplate;
  /** the account the mail goes to (its e-mail address and language are read when it is sent) */
  accountId: number;
  /** the template's placeholders, e.g. { initialPassword }, { resetLink, expiresInMinutes } */
  vars?: Record<string, string | number>;
}

export async function queueMail(tx: Queryable, mail: MailRequest, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await tx.run(
    `INSERT INTO _mail_queue (template, account_id, vars, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)`,
    [mail.template, mail.accountId, JSON.stringify(mail.vars ?? {}), at, at],
  );
}
