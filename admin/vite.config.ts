/**
 * Vite builds the admin into admin/dist, which the Fastify server serves on the API's own origin.
 * `npm run dev` runs Vite with hot reload and proxies the API to a running server (PORT, default 3000).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/connect': api, '/supplierApi': api },
  },
});
