/**
 * Vite builds the admin into admin/dist, which the Fastify server serves on the API's own origin.
 * `npm run dev` runs Vite with hot reload on VITE_PORT (default 5173) and proxies the API to the
 * dev server on PORT (default 3000).
 *
 * In dev, a metadata edit makes codegen rewrite src/generated/: instead of hot-updating those
 * modules, the page reloads once, when the API serves the same metadata (GET /api/meta answers its
 * hash), so the page never shows screens the server does not know yet.
 */
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const vitePort = Number(process.env.VITE_PORT ?? 5173);
const generatedMetadata = fileURLToPath(new URL('./src/generated/metadata.json', import.meta.url));

/** The metadata hash the API serves now, or null while it cannot be reached. */
async function serverHash(): Promise<string | null> {
  try {
    const r = await fetch(`${api}/api/meta`, { headers: { accept: 'application/json' } });
    return r.ok ? (((await r.json()) as { hash?: string }).hash ?? null) : null;
  } catch {
    return null;
  }
}

/** Holds the page's reload after a metadata change until the API has reloaded the same metadata. */
function reloadWithServer(): Plugin {
  let waiting: Promise<void> | null = null;
  return {
    name: 'portal-reload-with-server',
    apply: 'serve',
    handleHotUpdate({ file, server }) {
      if (!file.includes('/src/generated/')) return;
      waiting ??= (async () => {
        // the files arrive in a burst; the hash is in metadata.json
        await new Promise((r) => setTimeout(r, 50));
        let want = '';
        try {
          want = (JSON.parse(readFileSync(generatedMetadata, 'utf8')) as { hash: string }).hash;
        } catch {
          /* being written: reload anyway below */
        }
        const until = Date.now() + 20_000;
        while (want && Date.now() < until && (await serverHash()) !== want) await new Promise((r) => setTimeout(r, 100));
        if (want && (await serverHash()) !== want)
          server.config.logger.warn(`the API does not serve metadata ${want} yet (see the server's log): reloading the page anyway`);
        waiting = null;
        server.ws.send({ type: 'full-reload' });
      })();
      return [];
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), reloadWithServer()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
  server: {
    port: vitePort,
    strictPort: true,
    proxy: { '/api': api, '/connect': api, '/supplierApi': api },
  },
});
