/**
 * Builds the list-render harness (tests/bench/ui.ts builds it at bench time into .tmp/ui-harness,
 * gitignored; UI_HARNESS_OUT overrides): the same React 19, react-admin and MUI from node_modules
 * as the admin, production mode, one page.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: process.env.UI_HARNESS_OUT ?? fileURLToPath(new URL('../../../.tmp/ui-harness', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 5000,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
