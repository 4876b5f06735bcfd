/**
 * SMTP credentials never travel in clear text (issue 25 point 9): an smtp:// URL with a user name
 * requires STARTTLS (nodemailer's requireTLS), so a server that offers none gets no AUTH; only the
 * explicit opt-out (SMTP_ALLOW_PLAINTEXT=true, a local relay) sends them without TLS.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiresStartTls, smtpTransport } from '../../server/mail/transport.ts';
import { loadConfig } from '../../server/config.ts';

/** A server without STARTTLS that accepts AUTH in clear text and records what it was told. */
let server: SMTPServer;
let port = 0;
const logins: string[] = [];
let delivered = 0;

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, _session, cb) {
      logins.push(`${auth.username}:${auth.password}`);
      cb(null, { user: auth.username });
    },
    onData(stream, _session, cb) {
      stream.resume();
      stream.on('end', () => {
        delivered++;
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const mail = { from: 'portal@example.com', to: 'someone@example.com', subject: 'test', text: 'hello' };

describe('SMTP over TLS', () => {
  it('decides from the URL: credentials over smtp:// need STARTTLS, smtps:// and no credentials do not', () => {
    expect(requiresStartTls('smtp://user:secret@mail.example.com:587')).toBe(true);
    expect(requiresStartTls('smtp://user@mail.example.com:587')).toBe(true);
    expect(requiresStartTls('smtps://user:secret@mail.example.com:465')).toBe(false);
    expect(requiresStartTls('smtp://relay.local:25')).toBe(false);
    expect(requiresStartTls('smtp://user:secret@127.0.0.1:25', true)).toBe(false);
  });

  it('refuses to send credentials to a server that offers no STARTTLS, whatever the URL asks', async () => {
    for (const url of [`smtp://portal:s3cret@127.0.0.1:${port}`, `smtp://portal:s3cret@127.0.0.1:${port}/?requireTLS=false&ignoreTLS=true`]) {
      const t = smtpTransport(url);
      await expect(t.send(mail, 'x')).rejects.toThrow(/STARTTLS|TLS/i);
      t.close();
    }
    expect(logins).toEqual([]);
    expect(delivered).toBe(0);
  });

  it('sends in clear text only with the explicit opt-out', async () => {
    const t = smtpTransport(`smtp://portal:s3cret@127.0.0.1:${port}`, { allowPlaintext: true });
    await t.send(mail, 'x');
    t.close();
    expect(logins).toEqual(['portal:s3cret']);
    expect(delivered).toBe(1);
  });

  it('reads the opt-out from SMTP_ALLOW_PLAINTEXT, true or false only', () => {
    const base = { PORTAL_DB: '/tmp/x.db', SMTP_URL: 'smtp://u:p@127.0.0.1:25' };
    expect(loadConfig(base).mail.smtpAllowPlaintext).toBeUndefined();
    expect(loadConfig({ ...base, SMTP_ALLOW_PLAINTEXT: 'true' }).mail.smtpAllowPlaintext).toBe(true);
    expect(() => loadConfig({ ...base, SMTP_ALLOW_PLAINTEXT: 'yes' })).toThrow(/SMTP_ALLOW_PLAINTEXT/);
  });
});
