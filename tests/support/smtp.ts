/**
 * A real SMTP server for tests (the `smtp-server` package) on 127.0.0.1 and a port the kernel
 * picks: the portal sends to `url` with nodemailer as it would to a production relay, and the test
 * reads what arrived, parsed with `mailparser` (headers, text, HTML, recipients), plus the raw
 * message. `reject` answers a recipient with an SMTP error (a 4xx the sender retries, a 5xx it
 * gives up on); `onMessage` sees each mail as it arrives (the browser tests' inbox folder).
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  /** the envelope's recipients */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  headers: ParsedMail['headers'];
  raw: Buffer;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:<port> (no TLS: the server offers none) */
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** decides per recipient: null accepts; otherwise the SMTP code and text to answer with */
  reject: ((to: string) => { code: number; message: string } | null) | null;
  /** waits until a mail matching `pred` has arrived (polls; the test's own timeout bounds it) */
  waitFor(pred: (m: ReceivedMail) => boolean): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(opts: { onMessage?: (m: ReceivedMail) => void } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const state: { reject: TestSmtpServer['reject'] } = { reject: null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() waits for open connections; the portal's sender does not keep any
    closeTimeout: 1000,
    onRcptTo(address, _session, cb) {
      const r = state.reject?.(address.address);
      if (r) {
        const err = new Error(r.message) as Error & { responseCode: number };
        err.responseCode = r.code;
        cb(err);
      } else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((p) => {
            const m: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: p.subject ?? '',
              text: p.text ?? '',
              html: typeof p.html === 'string' ? p.html : null,
              headers: p.headers,
              raw,
            };
            mails.push(m);
            opts.onMessage?.(m);
            cb();
          })
          .catch((e: Error) => cb(e));
      });
    },
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => res());
  });
  const port = (server.server.address() as AddressInfo).port;
  const api: TestSmtpServer = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    get reject() {
      return state.reject;
    },
    set reject(fn) {
      state.reject = fn;
    },
    async waitFor(pred) {
      for (;;) {
        const hit = mails.find(pred);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
  return api;
}
