/**
 * Unit and integration tests: server, codegen and bench smoke tests run in Node; admin component
 * and provider tests run in jsdom. Browser tests are Playwright's (playwright.config.ts).
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/codegen/**/*.test.ts', 'tests/bench/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'admin',
          environment: 'jsdom',
          include: ['tests/admin/**/*.test.ts', 'tests/admin/**/*.test.tsx'],
          setupFiles: ['tests/admin/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
