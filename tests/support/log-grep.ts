/**
 * The log grep of a whole test run: `PORTAL_TEST_LOG=/tmp/portal-test.log npx vitest run ...`
 * makes every test app (tests/server/helpers.ts build()) log with the production logger options at
 * debug level, appending to that file; then `npx tsx tests/support/log-grep.ts /tmp/portal-test.log`
 * reads it and fails (exit 1) on any password of the demo data or the tests, bearer or reset token,
 * JWT, test secret, e-mail address, phone number or demo person's name, printing where.
 */
import { readFileSync } from 'node:fs';
import { appendFileSync } from 'node:fs';
import { DEMO_PASSWORD, INITIAL_PASSWORD } from '../../server/seed/base.ts';
import { loggerOptions } from '../../server/prepare.ts';

/** What must never be in a log line, by name. */
export const FORBIDDEN: [string, RegExp][] = [
  ['demo password', new RegExp(`${DEMO_PASSWORD}|${INITIAL_PASSWORD}`)],
  ['test JWT secret', /test-secret-0123456789/],
  ['JWT', /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}/],
  ['bearer header', /Bearer [A-Za-z0-9._-]{20,}/],
  ['reset link token', /token=[A-Za-z0-9_-]{20,}/],
  ['e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.(com|org|net|cn|example)\b/],
  ['mobile number', /\b1[3-9]\d{9}\b/],
  ['demo person name', /张伟|李娜|王芳|刘强|陈静|赵磊|孙丽/],
  ['password field with a value', /"(password|newPassword|oldPassword|confirmPassword)"\s*:\s*"[^"[]/],
];

/** Logger options for a test app when PORTAL_TEST_LOG names a file (else undefined: no logging). */
export function testLogger(): object | undefined {
  const file = process.env.PORTAL_TEST_LOG;
  if (!file) return undefined;
  return { ...loggerOptions('debug'), stream: { write: (s: string) => appendFileSync(file, s) } };
}

/** The lines of `text` that hold something forbidden, with what. */
export function leaks(text: string): { what: string; line: string }[] {
  const found: { what: string; line: string }[] = [];
  for (const line of text.split('\n')) for (const [what, re] of FORBIDDEN) if (re.test(line)) found.push({ what, line: line.slice(0, 300) });
  return found;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx tests/support/log-grep.ts FILE');
    process.exit(2);
  }
  const text = readFileSync(file, 'utf8');
  const found = leaks(text);
  console.log(`${text.split('\n').length - 1} log lines read; ${found.length} hold something that must not be logged`);
  for (const f of found.slice(0, 50)) console.log(`${f.what}: ${f.line}`);
  process.exit(found.length ? 1 : 0);
}
