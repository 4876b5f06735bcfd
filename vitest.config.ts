/**
 * Unit and integration tests: server, codegen and bench smoke tests run in Node (the server suite
 * on SQLite); the server suite runs a second time on PostgreSQL (project "server-pg": a throw-away
 * cluster started by tests/support/pg-global-setup.ts, or DATABASE_URL's server); admin component
 * and provider tests run in jsdom. Browser tests are Playwright's (playwright.config.ts).
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { scaled } from './tests/support/waits.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/codegen/**/*.test.ts', 'tests/bench/**/*.test.ts'],
          // one seeded database per demo-data scale for the run, copied by each test app (tests/server/seeded-template.ts)
          globalSetup: ['tests/support/template-global-setup.ts'],
          testTimeout: scaled(60_000),
          hookTimeout: scaled(120_000),
          pool: 'forks',
          // the test files share their worker's module cache instead of importing the server anew
          // each (issue 34: tests/server took 337 s isolated, 210 s not, on a quiet machine; the
          // import phase 80 s -> 8 s). Nothing here patches modules; the two files that fake the
          // clock (lockout, totp) restore it in afterAll.
          isolate: false,
        },
      },
      {
        test: {
          name: 'server-pg',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // SQLite's query planner (index-coverage) and the cluster helper's own test are SQLite-side only
          exclude: ['tests/server/index-coverage.test.ts', 'tests/server/pg-cluster.test.ts'],
          env: { PORTAL_TEST_BACKEND: 'postgres' },
          globalSetup: ['tests/support/pg-global-setup.ts', 'tests/support/template-global-setup.ts'],
          testTimeout: scaled(60_000),
          hookTimeout: scaled(120_000),
          pool: 'forks',
          isolate: false, // as the node project's, for the same reason
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'admin',
          environment: 'jsdom',
          include: ['tests/admin/**/*.test.ts', 'tests/admin/**/*.test.tsx'],
          setupFiles: ['tests/admin/setup.ts'],
          testTimeout: scaled(30_000),
          // loading a lazy screen's chunk in beforeAll took over vitest's default 10 s at load 20
          hookTimeout: scaled(60_000),
          // the test files share their worker's modules and its jsdom instead of importing the admin
          // and building a window anew each (on CI 133 s isolated, setup 78 s and environment 30 s of
          // it, about 25 s not; 179 s -> 38 s on 2 busy cores). tests/admin/setup.ts, run before each
          // file, keeps them apart: each file starts with the client metadata installed (the route
          // table rebuilt) and no messages loaded; after each test it unmounts, aborts the requests
          // still under way (a read waiting for an unreachable server would call a later file's fetch
          // mock), restores stubbed globals and real timers, empties the storage, and resets the
          // session stores and the address.
          isolate: false,
        },
      },
    ],
  },
});
