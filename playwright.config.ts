/**
 * Browser tests against the real server (built admin + API on one port) over a fresh temporary
 * SQLite database with demo data, in Debian's Chromium (never a downloaded browser).
 */
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './tests/e2e/chromium.ts';
import { pinnedFontsEnv } from './tests/e2e/fonts.ts';
import { e2ePort } from './tests/e2e/e2e-port.ts';
import { scaled } from './tests/support/waits.ts';
import { SQLITE_ONLY } from './tests/e2e/passes.ts';

const port = e2ePort();

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // the PostgreSQL pass leaves out the specs whose checks do not depend on the database (e2e/passes.ts)
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
    // the browser asks for less motion, and the portal honours it (admin/src/layout/theme.ts): no
    // transitions or ripples to draw frame after frame in software on CI's two cores (issue 34:
    // a spec ran 11% faster); the animations themselves are seen by the bench's browser, which asks nothing
    reducedMotion: 'reduce',
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
    // six shards start their servers at once beside the unit suite: scaled like every other limit
    timeout: scaled(120_000),
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
