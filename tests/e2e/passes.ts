/**
 * The browser suite's two passes: on SQLite every spec, on PostgreSQL all but SQLITE_ONLY
 * (playwright.config.ts reads it); and, for `npm test`, each pass cut into shards of whole spec
 * files (tests/support/suite-stages.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOCALES, type Locale } from '../../codegen/runtime/model.ts';

/**
 * The specs the PostgreSQL pass (`npm run test:e2e:pg`, E2E_DATABASE_URL set) leaves out, each with
 * why: what they check in the browser does not depend on the database, and what they need from the
 * server is engine code whose every route, query and write the server suite runs on both backends
 * (tests/server, project server-pg). The PostgreSQL pass keeps what does depend on the backend: the
 * business flows and their writes (screens, dialogs, accounts, lookups' fills, person names,
 * refusal reasons, screen capabilities, small points), the home's counts, sums and the bell across
 * processes, the interfaces in and out, the dev loop's migrations, and every screen's list and
 * actions for every persona (metadata-screens). docs/adr/0046-suite-in-lanes.md has the history:
 * the layout specs left in session 18, the shell and UI-behaviour specs in issue 34.
 */
export const SQLITE_ONLY: Record<string, string> = {
  'layout-1440.spec.ts': 'geometry at 1440 px',
  'filter-bar-layout.spec.ts': 'labels of the search form, measured',
  'screen-titles.spec.ts': 'titles per profile, from metadata',
  'skip-link.spec.ts': 'keyboard path',
  'public-bundle.spec.ts': 'the built files',
  'api-docs.spec.ts': 'a static page over the OpenAPI document',
  'sign-in-path.spec.ts': 'what the sign-in page downloads',
  'shell.spec.ts':
    'menus, tabs, settings, navigation rules and the 401 dialog; login, logout and the 602 change are server routes tested on both (auth, accounts)',
  'lookup-keyboard.spec.ts': 'keyboard and out-of-order answers, delayed by Playwright',
  'unsaved-changes.spec.ts': 'the page keeps an edit; the save is the generic write the server suite runs on both',
  'list-search.spec.ts': 'search, reset and export buttons; the list protocol is tested on both',
  'record-action-dialog.spec.ts': 'focus in a dialog; nothing is sent',
  'forgot-password.spec.ts': 'the pages of the reset; its tokens, mails and lockout are tested on both (password-reset, mail)',
  'totp.spec.ts': 'the two-step pages; enrolment, codes and recovery are tested on both (totp)',
};

/**
 * The languages a test written once per language runs in on this pass: both on SQLite; on
 * PostgreSQL one, `turn` saying which (0 the first of LOCALES, 1 the second), so that a spec's
 * loops alternate and both languages still run on PostgreSQL. What the database stores and answers
 * does not depend on the page's language, and the SQLite pass runs every such test in both (issue
 * 34: the PostgreSQL pass's per-language tests were 418 s of CI's time); the metadata suite does
 * the same by screen (metadata/plan.ts oneLanguageEach). A test that picks its data by language
 * takes the language's place in LOCALES, which is the same on both passes.
 */
export function passLocales(turn: 0 | 1): Locale[] {
  return process.env.E2E_DATABASE_URL ? [LOCALES[turn]] : [...LOCALES];
}

const ROOT = resolve(import.meta.dirname, '../..');
const E2E = join(ROOT, 'tests', 'e2e');

/** The spec files of a pass, as paths from the project root. */
export function passSpecs(pass: 'sqlite' | 'pg'): string[] {
  return readdirSync(E2E)
    .filter((f) => f.endsWith('.spec.ts') && !(pass === 'pg' && f in SQLITE_ONLY))
    .sort()
    .map((f) => `tests/e2e/${f}`);
}

/**
 * A pass's spec files in `of` shards of about equal weight, whole files each (a spec's tests share
 * their server's data and, in the metadata suite, a record of what was visited): the heaviest file
 * first into the lightest shard. A file's weight is its seconds in the last run's report
 * (.tmp/test-timings.json, for this pass) when there is one, else its lines of code. Playwright's
 * own --shard balances by test count, which left a shard empty beside the metadata suite's one big file.
 */
export function shardSpecs(pass: 'sqlite' | 'pg', of: number): string[][] {
  const last = join(ROOT, '.tmp', 'test-timings.json');
  const measured = new Map<string, number>();
  if (existsSync(last)) {
    const report = JSON.parse(readFileSync(last, 'utf8')) as { files?: { stage: string; file: string; seconds: number }[] };
    for (const f of report.files ?? []) if (f.stage.startsWith(`e2e:${pass} `)) measured.set(f.file, (measured.get(f.file) ?? 0) + f.seconds);
  }
  const weight = (file: string) => measured.get(file) ?? readFileSync(join(ROOT, file), 'utf8').split('\n').length;
  const shards = Array.from({ length: of }, () => ({ files: [] as string[], weight: 0 }));
  for (const file of passSpecs(pass).sort((a, b) => weight(b) - weight(a))) {
    const lightest = shards.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  return shards.map((s) => s.files.sort());
}
