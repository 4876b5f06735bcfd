/**
 * Browser tests against the real server (built admin + API on one port) over a fresh temporary
 * SQLite database with demo data, in Debian's Chromium (never a downloaded browser).
 */
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './tests/e2e/chromium.ts';
import { pinnedFontsEnv } from './tests/e2e/fonts.ts';
import { e2ePort } from './tests/e2e/e2e-port.ts';
import { scaled } from './tests/support/waits.ts';

const port = e2ePort();

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
const SQLITE_ONLY: Record<string, string> = {
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

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  testIgnore: process.env.E2E_DATABASE_URL ? Object.keys(SQLITE_ONLY).map((f) => `**/${f}`) : [],
  // npm test runs the SQLite and PostgreSQL passes side by side (tests/support/suite.ts): each has
  // its own folder, since Playwright empties its output folder when it starts
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  // limits for a quiet machine, times the load factor of tests/support/waits.ts (1 on a quiet
  // machine, up to 4; TEST_WAIT_FACTOR overrides): on a fresh clone beside another whole suite, at
  // load 19 on 2 cores, a lazy chunk (the date pickers) took longer than a fixed 10 s to render
  timeout: scaled(60_000),
  expect: { timeout: scaled(10_000) },
  fullyParallel: false,
  workers: 1,
  // One retry, with a trace of it: a test that fails and then passes is reported as "flaky" by name
  // in the summary (not hidden), and the retry's trace (test-results/<test>-retry1/trace.zip) shows
  // what happened. Why: single failures no rerun reproduces cost whole CI runs (sessions 20-22: a
  // lost menu click after login at load 10, 0 of 20 repeats; an idle connection reset), while a test
  // that fails twice still fails the run. docs/adr/0045-browser-suite-retry.md
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath({ headlessShell: true }),
      // the same fonts on every machine: a test that measures text must not depend on what is installed
      env: pinnedFontsEnv(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'],
    },
  },
  webServer: {
    command: `npx tsx tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${port}/api/warehouses`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
