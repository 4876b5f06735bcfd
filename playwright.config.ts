/**
 * Browser tests against the real server (built admin + API on one port) over a fresh temporary
 * SQLite database with demo data, in Debian's Chromium (never a downloaded browser).
 */
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './tests/e2e/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 3310);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
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
