/**
 * How a rendered mail leaves the server, with nodemailer: over SMTP when SMTP_URL is set
 * (`smtp://user:password@host:587`, `smtps://host:465`), otherwise written as an `.eml` file (the
 * whole RFC 5322 message, as SMTP would have carried it) into a folder, so that a newcomer with
 * no mail server opens the mails the portal sent in any mail program. Credentials never travel in
 * clear text: an `smtp://` URL with a user name requires STARTTLS (requiresStartTls).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface Delivery {
  messageId: string;
  /** the .eml file written (no SMTP) */
  file?: string;
}

export interface MailTransport {
  kind: 'smtp' | 'file';
  /** `name`: a file-name stem for the .eml (unique per mail) */
  send(mail: OutgoingMail, name: string): Promise<Delivery>;
  close(): void;
}

/** An SMTP error the server will answer the same way next time (5xx): retrying is pointless. */
export function isPermanentSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Whether a connection to `url` must be encrypted before anything is sent: with credentials in
 * the URL, an `smtp://` server that offers no STARTTLS would otherwise receive them in clear text
 * (nodemailer upgrades only when offered). `smtps://` is TLS from the first byte. A local relay
 * without TLS is allowed only by the explicit opt-out (SMTP_ALLOW_PLAINTEXT=true).
 */
export function requiresStartTls(url: string, allowPlaintext = false): boolean {
  const u = new URL(url);
  return u.protocol === 'smtp:' && (u.username !== '' || u.password !== '') && !allowPlaintext;
}

/** The URL without settings that would let nodemailer skip TLS (its URL settings win over options). */
function withoutTlsEscapes(url: string): string {
  const u = new URL(url);
  for (const key of ['ignoreTLS', 'requireTLS', 'opportunisticTLS', 'secure']) u.searchParams.delete(key);
  return u.toString();
}

export function smtpTransport(url: string, opts: { allowPlaintext?: boolean } = {}): MailTransport {
  const requireTLS = requiresStartTls(url, opts.allowPlaintext);
  // the URL's settings win over these (nodemailer merges them); the timeouts keep a dead server
  // from holding a send for minutes (the row is retried later)
  const t = nodemailer.createTransport({
    url: requireTLS ? withoutTlsEscapes(url) : url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    ...(requireTLS ? { requireTLS: true } : {}),
  } as never);
  return {
    kind: 'smtp',
    async send(mail) {
      const info = (await t.sendMail(mail)) as { messageId: string };
      return { messageId: info.messageId };
    },
    close: () => t.close(),
  };
}

export function fileTransport(dir: string): MailTransport {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let made = false;
  return {
    kind: 'file',
    async send(mail, name) {
      const info = (await t.sendMail(mail)) as { messageId: string; message: Buffer };
      if (!made) {
        mkdirSync(dir, { recursive: true });
        made = true;
      }
      const file = join(dir, `${name}.eml`);
      // written whole or not at all: a reader never opens half a mail
      const part = `${file}.${process.pid}.part`;
      writeFileSync(part, info.message, { mode: 0o600 });
      renameSync(part, file);
      return { messageId: info.messageId, file };
    },
    close: () => t.close(),
  };
}

export function createTransport(opts: { smtpUrl?: string | undefined; smtpAllowPlaintext?: boolean | undefined; dir: string }): MailTransport {
  return opts.smtpUrl ? smtpTransport(opts.smtpUrl, { allowPlaintext: opts.smtpAllowPlaintext ?? false }) : fileTransport(opts.dir);
}
