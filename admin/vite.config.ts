/**
 * Vite builds the admin into admin/dist, which the Fastify server serves on the API's own origin.
 * `npm run dev` runs Vite with hot reload on VITE_PORT (default 5173) and proxies the API to the
 * dev server on PORT (default 3000).
 *
 * In dev, a metadata edit makes codegen rewrite src/generated/: instead of hot-updating those
 * modules (the app reads them as it loads), this plugin sends the page the edit. An edit that changed only texts
 * (labels, messages: the message bundles differ, nothing else but the hash) sends the new bundles to
 * the page at once, which swaps them in place (admin/src/providers/i18nProvider.ts); any other edit sends
 * 'portal:metadata' with the whole model at once: the page makes its session's view of it and
 * re-renders the open screen in place (admin/src/providers/metadataSwap.ts); once the API serves it,
 * a page whose route table changed reloads. Type errors in hooks and handlers show in Vite's error overlay (typeErrorsOverlay).
 */
import { defineConfig, type Plugin, type ViteDevServer } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';
import { preloadApp } from './preloadApp.ts';
import { leanModules } from './leanModules.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const vitePort = Number(process.env.VITE_PORT ?? 5173);
const generatedDir = fileURLToPath(new URL('./src/generated/', import.meta.url));
const MESSAGES = /^messages\.(.+)\.json$/;
/** The two parts the app loads (messages-public.<locale>.json, messages-session.<locale>.json): made from the bundles, so not compared again. */
const MESSAGE_PARTS = /^messages-[a-z]+\..+\.json$/;

/** The admin's whole metadata and schemas as codegen wrote them (dev only: the bundle carries only the public part). */
type DevModel = { metadata: unknown; schemas?: unknown };

/**
 * What src/generated/ holds now: the metadata hash, the message bundles, the whole model, and
 * everything else as one string (the hash left out), or null while codegen is still writing (a
 * file that does not parse).
 */
function generatedNow(): { hash: string; bundles: Record<string, unknown>; model: DevModel; schemasText: string; structure: string } | null {
  try {
    const bundles: Record<string, unknown> = {};
    const model: DevModel = { metadata: null, schemas: null };
    let schemasText = '';
    const rest: string[] = [];
    let hash = '';
    for (const name of readdirSync(generatedDir).sort()) {
      if (MESSAGE_PARTS.test(name)) continue;
      const text = readFileSync(generatedDir + name, 'utf8');
      const locale = MESSAGES.exec(name)?.[1];
      if (locale) bundles[locale] = JSON.parse(text);
      else if (name === 'metadata.json' || name === 'metadata.public.json') {
        const parsed = JSON.parse(text) as { hash: string };
        const { hash: h, ...withoutHash } = parsed;
        hash = h;
        if (name === 'metadata.json') model.metadata = parsed;
        rest.push(name, JSON.stringify(withoutHash));
      } else {
        if (name === 'schemas.json') [schemasText, model.schemas] = [text, JSON.parse(text)];
        rest.push(name, text);
      }
    }
    return { hash, bundles, model, schemasText, structure: rest.join('\0') };
  } catch {
    return null;
  }
}

/** The metadata hash the API serves now, or null while it cannot be reached. */
async function serverHash(): Promise<string | null> {
  try {
    const r = await fetch(`${api}/api/meta`, { headers: { accept: 'application/json' } });
    return r.ok ? (((await r.json()) as { hash?: string }).hash ?? null) : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends the page each metadata change codegen writes: an edit of texts only (the message bundles
 * differ, nothing else but the hash) at once, as the new bundles, since the page needs nothing new
 * from the API for them. Any other edit is sent twice as 'portal:metadata': at once with the whole
 * model, from which the page makes its session's view and swaps the open screen in place (a new
 * column or button drawn without waiting for the server's reload: the dev server holds the page's
 * requests until it has loaded the same files, server/dev.ts); then once the API serves the same
 * metadata, without it, for a page that could not swap in place (a new screen: it reloads then) or
 * a reload when the API does not catch up. Files written while it waits are judged as they come,
 * so a quick second save is never lost behind the first.
 */
function reloadWithServer(): Plugin {
  let waiting: Promise<void> | null = null;
  let written = false;
  let last = generatedNow();
  /** The last model sent to the page: each hash once, the schemas only when they changed (the page keeps its own). */
  let sent = { hash: last?.hash ?? '', schemasText: last?.schemasText ?? '' };
  function sendModel(server: ViteDevServer, now: NonNullable<typeof last>): void {
    if (now.hash === sent.hash) return;
    const model = now.schemasText === sent.schemasText ? { metadata: now.model.metadata } : now.model;
    sent = { hash: now.hash, schemasText: now.schemasText };
    server.ws.send({ type: 'custom', event: 'portal:metadata', data: { hash: now.hash, bundles: now.bundles, model } });
    server.config.logger.info(`metadata ${now.hash}: screens sent to the page`, { timestamp: true });
  }
  /** Resolves true once the API serves `hash`; false on a newer write or after 20 s. */
  async function serverServes(hash: string): Promise<boolean> {
    const until = Date.now() + 20_000;
    while (!written && Date.now() < until) {
      if ((await serverHash()) === hash) return true;
      await sleep(25);
    }
    return false;
  }
  async function settle(server: ViteDevServer): Promise<void> {
    for (let tries = 0; written && tries < 200; tries++) {
      written = false;
      await sleep(20); // the files arrive in a burst
      const now = generatedNow();
      if (!now) {
        written = true; // being written: read again
        continue;
      }
      if (last && now.hash === last.hash) continue;
      if (last && now.structure === last.structure) {
        last = now;
        server.ws.send({ type: 'custom', event: 'portal:messages', data: { hash: now.hash, bundles: now.bundles } });
        server.config.logger.info(`metadata ${now.hash}: texts sent to the page`, { timestamp: true });
        continue;
      }
      sendModel(server, now);
      const caughtUp = await serverServes(now.hash);
      if (written) continue; // newer files: judged against what the page has now
      last = now;
      // a page that swapped already does nothing; one that could not swaps from the API now, or reloads
      if (caughtUp) {
        server.ws.send({ type: 'custom', event: 'portal:metadata', data: { hash: now.hash, bundles: now.bundles } });
        server.config.logger.info(`metadata ${now.hash}: served by the API`, { timestamp: true });
      } else {
        server.config.logger.warn(`the API does not serve metadata ${now.hash} yet (see the server's log): reloading the page anyway`);
        server.ws.send({ type: 'full-reload' });
      }
    }
    waiting = null;
  }
  return {
    name: 'portal-reload-with-server',
    apply: 'serve',
    handleHotUpdate({ file, server }) {
      if (!file.includes('/src/generated/')) return;
      written = true;
      waiting ??= settle(server);
      return [];
    },
  };
}

/**
 * The type errors `npm run dev` finds in hooks and handlers (codegen/dev-typecheck.ts writes its
 * report file) shown in Vite's error overlay on the page, and taken away once they are fixed.
 */
function typeErrorsOverlay(): Plugin {
  const report = fileURLToPath(new URL('../.tmp/dev/types.json', import.meta.url));
  return {
    name: 'portal-type-errors-overlay',
    apply: 'serve',
    configureServer(server) {
      let shown = false;
      server.watcher.add(report);
      server.watcher.on('all', (_event, file) => {
        if (file !== report) return;
        let errors: string[];
        try {
          errors = (JSON.parse(readFileSync(report, 'utf8')) as { errors: string[] }).errors;
        } catch {
          return; // being written
        }
        if (errors.length)
          server.ws.send({ type: 'error', err: { message: `Type errors in hooks or handlers:\n\n${errors.join('\n\n')}`, stack: '', plugin: 'tsc' } });
        else if (shown) server.ws.send({ type: 'full-reload' });
        shown = errors.length > 0;
      });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [leanModules(), react(), reloadWithServer(), typeErrorsOverlay(), preloadApp(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
    rollupOptions: {
      output: {
        // React in a chunk of its own: every page needs it and it changes only with an upgrade, so a
        // browser keeps it cached across our releases (the rest is split by import, route by route)
        manualChunks: (id: string) => (/[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/.test(id) ? 'react' : undefined),
      },
    },
  },
  server: {
    port: vitePort,
    strictPort: true,
    proxy: { '/api': api, '/connect': api, '/supplierApi': api },
  },
});
