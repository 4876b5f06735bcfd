/**
 * The browser tests' mailbox: serve.ts runs a real SMTP server (tests/support/smtp.ts) that the
 * portal sends to (SMTP_URL), and stores each mail it receives as an .eml file in this folder;
 * a spec reads what arrived there, as a user reads their mail. The folder is named after the
 * e2e port, so serve.ts and the specs find the same one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { e2ePort } from './e2e-port.ts';

export const inboxDir = (port: number | string = e2ePort()): string => join(tmpdir(), `portal-e2e-inbox-${port}`);

/** The names of the mails that have arrived so far (in arrival order). */
export function inboxNames(port?: number | string): string[] {
  const dir = inboxDir(port);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.eml'))
        .sort()
    : [];
}

/** Waits for a mail that was not in `seen` and matches `pred`; polls the folder (the test's timeout bounds it). */
export async function waitForMail(seen: readonly string[], pred: (m: ParsedMail) => boolean, timeoutMs = 20_000): Promise<ParsedMail> {
  const old = new Set(seen);
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const name of inboxNames()) {
      if (old.has(name)) continue;
      const m = await simpleParser(readFileSync(join(inboxDir(), name)));
      if (pred(m)) return m;
      old.add(name);
    }
    if (Date.now() > end) throw new Error(`no matching mail arrived in ${inboxDir()} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The address a parsed mail went to. */
export const recipient = (m: ParsedMail): string => (Array.isArray(m.to) ? m.to[0]?.text : m.to?.text) ?? '';
