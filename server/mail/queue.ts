/**
 * The one way server code asks for an e-mail: `queueMail(tx, …)` inside the transaction of the change
 * that causes it (an account created, unlocked, a password reset requested). The row waits in the
 * private `_mail_queue` table until the mail sender (sender.ts) renders the account's template in
 * the account's language and delivers it; a rolled-back change leaves no row, so nothing is sent.
 * Why not a job-queue library (pg-boss, graphile-worker): they need PostgreSQL, and SQLite is the
 * embedded default; one table and one claim statement per dialect do the job on both.
 *
 * The templates are metadata (metadata/mail.json). A call that does not fit its template (a
 * placeholder missing, or one the template does not declare) is a programming error: it throws,
 * which rolls the caller's transaction back, rather than queue a mail that would go out broken.
 */
import type { Queryable } from '../db/types.ts';
import { metadata } from '../generated/index.ts';
import { STANDARD_MAIL_VARS, isMailTemplate, type MailTemplate } from '../../codegen/runtime/mail.ts';

/** The notification e-mails (templates in metadata/mail.json, both languages). */
export type { MailTemplate };

export interface MailRequest {
  template: MailTemplate;
  /** the account the mail goes to (its e-mail address and language are read when it is sent) */
  accountId: number;
  /**
   * The template's declared placeholders (metadata/mail.json `vars`), e.g. { initialPassword },
   * { resetLink, expiresInMinutes }. The standard ones (userId, name, links, password rules) are
   * filled in by the sender from the account and the configuration; passed here they are ignored.
   * The values are kept until the mail is sent or has failed, then cleared (they may be secrets).
   */
  vars?: Record<string, string | number>;
  /**
   * Queue this mail only once for this key, ever (e.g. one expiry reminder per account and
   * expiry): the key is recorded in the same transaction, so of two processes only one queues it.
   */
  onceKey?: string;
}

const STANDARD = new Set<string>(STANDARD_MAIL_VARS);

/** The vars to store, checked against the template's declaration. */
function checkedVars(mail: MailRequest): Record<string, string | number> {
  if (!isMailTemplate(mail.template)) throw new Error(`queueMail: unknown mail template "${String(mail.template)}"`);
  const declared = metadata.mail[mail.template].vars;
  const given = Object.fromEntries(Object.entries(mail.vars ?? {}).filter(([k]) => !STANDARD.has(k)));
  const missing = declared.filter((v) => given[v] === undefined || given[v] === null);
  if (missing.length) throw new Error(`queueMail: template "${mail.template}" needs ${missing.map((v) => `{{${v}}}`).join(', ')} (metadata/mail.json)`);
  const unknown = Object.keys(given).filter((k) => !declared.includes(k));
  if (unknown.length)
    throw new Error(
      `queueMail: template "${mail.template}" declares no ${unknown.map((v) => `{{${v}}}`).join(', ')} (add it to its vars in metadata/mail.json and use it in the texts)`,
    );
  return given;
}

/**
 * Queues a mail in the caller's transaction. Answers false when `onceKey` was queued before (no
 * new mail), true otherwise.
 */
export async function queueMail(tx: Queryable, mail: MailRequest, now = new Date()): Promise<boolean> {
  const vars = checkedVars(mail);
  const at = now.toISOString();
  if (mail.onceKey !== undefined) {
    const first = await tx.run(`INSERT INTO _mail_once (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, [mail.onceKey, at]);
    if (first.changes === 0) return false;
  }
  await tx.run(`INSERT INTO _mail_queue (template, account_id, vars, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', 0, ?, ?)`, [
    mail.template,
    mail.accountId,
    JSON.stringify(vars),
    at,
    at,
  ]);
  return true;
}
