/**
 * E-mail in the Fastify app: `app.mailer` sends what `queueMail` queued (sender.ts) and queues the
 * password-expiry reminders (expiry-reminder.ts). With `loop` on (every server process that
 * `npm start` runs) it works by itself: a pass every `pollMs`, at once after `wake()` (a route
 * that has just queued a mail), and the reminder scan every `expiryScanMs`. Without it (tests,
 * tools) nothing is sent until somebody calls `runOnce()` / `drain()`.
 */
import fp from 'fastify-plugin';
import type { Db } from '../db/types.ts';
import { MailSender, type PassResult } from './sender.ts';
import { createTransport } from './transport.ts';
import { portalLinks, type PortalLinks } from './links.ts';
import { queueExpiryReminders } from './expiry-reminder.ts';

export interface MailOptions {
  /** SMTP_URL: send over SMTP; unset, mails are written as .eml files into `dir` */
  smtpUrl?: string;
  /** SMTP_ALLOW_PLAINTEXT=true: send credentials to an smtp:// server that offers no STARTTLS (a local relay only) */
  smtpAllowPlaintext?: boolean;
  /** the folder of the .eml files (PORTAL_MAIL_DIR; default: `mail/` beside the SQLite file, `data/mail` on PostgreSQL) */
  dir?: string;
  /** the From header (PORTAL_MAIL_FROM) */
  from?: string;
  /** run the sender loop in this process (npm start: on; default off) */
  loop?: boolean;
  /** the loop's pause between passes (default 5 s) */
  pollMs?: number;
  /** how often the loop looks for passwords about to expire (default 1 hour) */
  expiryScanMs?: number;
  /** attempts before a mail fails (default 6) */
  maxAttempts?: number;
  /** the first retry's wait, doubled for each further one (default 60 s) */
  retryBaseMs?: number;
}

export interface Mailer {
  links: PortalLinks;
  transportKind: 'smtp' | 'file';
  /** one pass of the sender: the due mails of one claim */
  runOnce(now?: Date): Promise<PassResult>;
  /** passes until nothing is due */
  drain(now?: Date): Promise<PassResult>;
  /** queues the password-expiry reminders due now; answers how many */
  scanExpiry(now?: Date): Promise<number>;
  /** a mail was just queued: the loop (when on) sends it now rather than at its next poll */
  wake(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export default fp(
  async (app, opts: MailOptions & { db: Db; dir: string; publicUrl: string }) => {
    const links = portalLinks(opts.publicUrl);
    const transport = createTransport({ smtpUrl: opts.smtpUrl, smtpAllowPlaintext: opts.smtpAllowPlaintext, dir: opts.dir });
    const sender = new MailSender({
      db: opts.db,
      log: app.log,
      transport,
      from: opts.from ?? 'Supplier portal <no-reply@localhost>',
      links,
      ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
      ...(opts.retryBaseMs !== undefined ? { retryBaseMs: opts.retryBaseMs } : {}),
    });
    const pollMs = opts.pollMs ?? 5_000;
    const expiryScanMs = opts.expiryScanMs ?? 3_600_000;

    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;
    let stopped = false;
    let again = false;
    let lastScan = 0;

    /** One turn of the loop: the reminder scan when due, then passes until nothing is due. Never throws. */
    const turn = async () => {
      try {
        if (Date.now() - lastScan >= expiryScanMs) {
          lastScan = Date.now();
          const n = await queueExpiryReminders(opts.db);
          if (n) app.log.info({ event: 'mailReminders', queued: n }, `${n} password-expiry reminder(s) queued`);
        }
        await sender.drain();
      } catch (err) {
        // a database that is away (restart, failover) must not end the loop: the next turn tries again
        app.log.error({ event: 'mailLoop', err }, 'mail pass failed');
      }
    };
    const schedule = (ms: number) => {
      if (stopped || !opts.loop) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, ms);
      timer.unref();
    };
    function run() {
      timer = null;
      if (running) {
        again = true;
        return;
      }
      running = turn().finally(() => {
        running = null;
        const soon = again;
        again = false;
        schedule(soon ? 0 : pollMs);
      });
    }

    app.decorate('mailer', {
      links,
      transportKind: sender.transportKind,
      runOnce: (now?: Date) => sender.runOnce(now),
      drain: (now?: Date) => sender.drain(now),
      scanExpiry: (now?: Date) => queueExpiryReminders(opts.db, now),
      wake: () => schedule(0),
    } satisfies Mailer);

    if (opts.loop) {
      app.addHook('onReady', async () => {
        app.log.info(
          { event: 'mailer', transport: sender.transportKind, ...(sender.transportKind === 'file' ? { dir: opts.dir } : {}) },
          sender.transportKind === 'file' ? `no SMTP_URL: mails are written to ${opts.dir}` : 'mails are sent over SMTP',
        );
        schedule(0);
      });
    }
    app.addHook('onClose', async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      // a pass under way finishes (its rows would otherwise wait for their lease to run out)
      if (running) await running;
      sender.close();
    });
  },
  { name: 'mail' },
);
