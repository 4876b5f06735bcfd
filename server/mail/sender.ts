/**
 * The mail sender: takes due rows of `_mail_queue`, renders them (compose.ts) and delivers them
 * (transport.ts), one log line per mail. Every server process runs one (a loop, `start()`);
 * tests call `runOnce()`.
 *
 * Several processes never send a row twice: a pass *claims* its rows first, in one statement
 * that marks them `sending` with a lease (`next_attempt_at` moved ahead) and counts the attempt.
 * On SQLite the claim runs in an IMMEDIATE transaction (one writer at a time, so a row is claimed
 * once); on PostgreSQL its SELECT takes `FOR UPDATE SKIP LOCKED`, so a second process skips the
 * rows the first is claiming and takes others. A process that dies while sending leaves rows
 * `sending` whose lease runs out; another pass claims them again (the mail may then go out twice:
 * delivery is at least once, never silently lost).
 *
 * Outcomes: `sent` (vars cleared: they may hold an initial password or a reset link); a failure
 * is retried with exponential backoff (`pending` again) until `maxAttempts`, then `failed` (vars
 * cleared, `last_error` says why); an SMTP 5xx answer, an account without an e-mail address or a
 * template that cannot be rendered fail at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/types.ts';
import { isMailTemplate } from '../../codegen/runtime/mail.ts';
import { composeMail, type MailRecipient } from './compose.ts';
import type { PortalLinks } from './links.ts';
import { isPermanentSmtpError, type MailTransport } from './transport.ts';

export interface SenderOptions {
  db: Db;
  log: FastifyBaseLogger;
  transport: MailTransport;
  /** the From header, e.g. `Supplier portal <no-reply@example.com>` */
  from: string;
  links: PortalLinks;
  /** attempts before a mail is given up (default 6) */
  maxAttempts?: number;
  /** wait after the first failed attempt; doubles with each further one, at most 6 hours (default 60 s) */
  retryBaseMs?: number;
  /** how long a claimed row is left to its sender before another pass may take it (default 10 min) */
  leaseMs?: number;
  /** rows per claim (default 20) */
  batch?: number;
}

export interface PassResult {
  sent: number;
  retried: number;
  failed: number;
}

interface ClaimedRow {
  id: number;
  template: string;
  accountId: number;
  vars: string;
  attempts: number;
}

const MAX_BACKOFF_MS = 6 * 3600_000;
const ERROR_LENGTH = 500;

/** Failures that retrying will not cure. */
class PermanentFailure extends Error {}

export class MailSender {
  readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;

  constructor(private readonly o: SenderOptions) {
    this.maxAttempts = o.maxAttempts ?? 6;
    this.retryBaseMs = o.retryBaseMs ?? 60_000;
    this.leaseMs = o.leaseMs ?? 10 * 60_000;
    this.batch = o.batch ?? 20;
  }

  get transportKind(): MailTransport['kind'] {
    return this.o.transport.kind;
  }

  /** Claims due rows (they become `sending`, leased until now + leaseMs) and answers them in id order. */
  private async claim(now: Date): Promise<ClaimedRow[]> {
    const { db } = this.o;
    const at = now.toISOString();
    const rows = await db.transaction((tx) =>
      tx.all<ClaimedRow>(
        `UPDATE _mail_queue SET status = 'sending', attempts = attempts + 1, next_attempt_at = ?
         WHERE id IN (SELECT q.id FROM _mail_queue q WHERE status IN ('pending', 'sending') AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ${Math.trunc(this.batch)}${tx.dialect.skipLocked('q')})
         RETURNING id, template, account_id AS "accountId", vars, attempts`,
        [new Date(now.getTime() + this.leaseMs).toISOString(), at],
      ),
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), accountId: Number(r.accountId), attempts: Number(r.attempts) })).sort((a, b) => a.id - b.id);
  }

  /** One pass: every due row of one claim (at most `batch`), each sent, retried later or failed. */
  async runOnce(now = new Date()): Promise<PassResult> {
    const result: PassResult = { sent: 0, retried: 0, failed: 0 };
    for (const row of await this.claim(now)) result[await this.deliver(row, now)]++;
    return result;
  }

  /** Passes until nothing is due (tests and the loop's catch-up). */
  async drain(now = new Date()): Promise<PassResult> {
    const total: PassResult = { sent: 0, retried: 0, failed: 0 };
    for (;;) {
      const r = await this.runOnce(now);
      total.sent += r.sent;
      total.retried += r.retried;
      total.failed += r.failed;
      if (r.sent + r.retried + r.failed < this.batch) return total;
    }
  }

  private async deliver(row: ClaimedRow, now: Date): Promise<keyof PassResult> {
    const { db, log } = this.o;
    const line = { event: 'mail', mailId: row.id, template: row.template, accountId: row.accountId, attempt: row.attempts };
    let userId: string | undefined;
    try {
      if (!isMailTemplate(row.template)) throw new PermanentFailure(`unknown template "${row.template}"`);
      const account = await db.get<MailRecipient>(`SELECT user_id AS "userId", name, email, language FROM account WHERE id = ?`, [row.accountId]);
      if (!account) throw new PermanentFailure('the account no longer exists');
      userId = account.userId;
      const to = account.email?.trim();
      if (!to) throw new PermanentFailure('the account has no e-mail address');
      let mail;
      try {
        mail = composeMail(row.template, account, JSON.parse(row.vars) as Record<string, string | number>, this.o.links);
      } catch (e) {
        throw new PermanentFailure(`cannot render: ${(e as Error).message}`);
      }
      const sent = await this.o.transport.send(
        {
          from: this.o.from,
          to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          headers: { 'X-Portal-Template': row.template, 'X-Portal-Mail-Id': String(row.id) },
        },
        `${now.toISOString().replace(/[:.]/g, '-')}-${String(row.id).padStart(6, '0')}-${row.template}`,
      );
      await db.run(`UPDATE _mail_queue SET status = 'sent', sent_at = ?, vars = '{}', last_error = NULL WHERE id = ?`, [new Date().toISOString(), row.id]);
      // the file's path is logged so that, without SMTP, the mail can be found and opened; never the vars
      log.info(
        {
          ...line,
          userId,
          locale: mail.locale,
          outcome: 'sent',
          transport: this.o.transport.kind,
          messageId: sent.messageId,
          ...(sent.file ? { file: sent.file } : {}),
        },
        sent.file ? `mail written to ${sent.file}` : 'mail sent',
      );
      return 'sent';
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_LENGTH);
      const final = err instanceof PermanentFailure || isPermanentSmtpError(err) || row.attempts >= this.maxAttempts;
      if (final) {
        await db.run(`UPDATE _mail_queue SET status = 'failed', vars = '{}', last_error = ? WHERE id = ?`, [reason, row.id]);
        log.warn({ ...line, userId, outcome: 'failed', reason }, 'mail failed');
        return 'failed';
      }
      const wait = Math.min(MAX_BACKOFF_MS, this.retryBaseMs * 2 ** (row.attempts - 1));
      const next = new Date(now.getTime() + wait).toISOString();
      await db.run(`UPDATE _mail_queue SET status = 'pending', next_attempt_at = ?, last_error = ? WHERE id = ?`, [next, reason, row.id]);
      log.warn({ ...line, userId, outcome: 'retry', nextAttemptAt: next, reason }, 'mail not sent, will retry');
      return 'retried';
    }
  }

  close(): void {
    this.o.transport.close();
  }
}
