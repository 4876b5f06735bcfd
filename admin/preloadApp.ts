/**
 * Build step (issue 21, point 1): index.html asks for the app's chunk and its static imports at
 * once (`<link rel="modulepreload">`), beside the entry. The entry imports the app dynamically,
 * after the first language's messages and the session's metadata (admin/src/main.tsx: the app's
 * modules read the metadata as they load), so without these links the browser would only start
 * downloading the app after those answers: one more round trip chain before the sign-in page on a
 * slow link. Preloading fetches without running, so the order of evaluation is unchanged.
 *
 * The first language's messages are a dynamic import of the entry too, but which one depends on the
 * browser (stored preference, browser languages): a small inline script, built from the app's own
 * choice (src/providers/localeChoice.ts), adds the modulepreload of that language's bundle while the
 * HTML is parsed, so the messages no longer wait for the entry to run (one round trip less on the
 * sign-in page; the other language is not fetched): the part the public pages show, and the rest
 * only on a page with a session (the sign-in page fetches it once idle). A wrong guess costs
 * nothing but the bytes: the entry still imports the bundle it resolves. `<link rel="icon"
 * href="data:,">` spares the browser
 * its request for /favicon.ico, which the server answers with the page itself, competing with the
 * scripts for the link.
 */
import { readFileSync } from 'node:fs';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { pickLocale } from './src/providers/localeChoice.ts';
import { KEYS } from './src/providers/storage.ts';

/** The entry module whose dynamic import is preloaded. */
const APP_MODULE = /\/src\/App\.tsx$/;

interface ChunkLike {
  type: string;
  fileName: string;
  facadeModuleId?: string | null;
  imports?: string[];
}

/** The app chunk and everything it imports statically (file names), the entry's own imports left out. */
export function appChunkFiles(bundle: Record<string, ChunkLike>, entryFile: string): string[] {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const app = chunks.find((c) => c.facadeModuleId && APP_MODULE.test(c.facadeModuleId));
  if (!app) return [];
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const already = new Set([entryFile, ...(byFile.get(entryFile)?.imports ?? [])]);
  const out: string[] = [];
  const visit = (file: string) => {
    if (already.has(file) || out.includes(file)) return;
    out.push(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
  };
  visit(app.fileName);
  return out;
}

/**
 * A message chunk (part, locale): the dynamic imports of src/generated/messages-<part>.<locale>.json
 * and of react-admin's own texts, src/i18n/ra.<locale>.ts (part "ra", loaded with "public").
 */
const MESSAGE_MODULES = [/\/src\/generated\/messages-([a-z]+)\.([^/]+)\.json$/, /\/src\/i18n\/(ra)\.([^/]+)\.ts$/];

/** Each language's message chunks (file name by locale and part: public, ra, session). */
export function messageChunks(bundle: Record<string, ChunkLike>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const c of Object.values(bundle)) {
    if (c.type !== 'chunk' || !c.facadeModuleId) continue;
    for (const pattern of MESSAGE_MODULES) {
      const m = pattern.exec(c.facadeModuleId);
      if (m) (out[m[2]] ??= {})[m[1]] = c.fileName;
    }
  }
  return out;
}

/**
 * The inline script that preloads the messages of the language the page will start in: the app's
 * own `pickLocale` over the same inputs (stored preference, navigator.languages), never throwing
 * (storage may be unavailable). Their public part (with react-admin's own texts) always; the
 * session part too when a token is stored, as the app does (src/providers/i18nProvider.ts,
 * partsForThisPage).
 */
export function messagesPreloadScript(chunks: Record<string, Record<string, string>>, supported: readonly string[], fallback: string): string {
  const files = Object.fromEntries(Object.entries(chunks).map(([l, parts]) => [l, Object.fromEntries(Object.entries(parts).map(([p, f]) => [p, `/${f}`]))]));
  return [
    '(function(){try{',
    `var pick=${pickLocale.toString()};`,
    `var files=${JSON.stringify(files)};`,
    `var s=null,t=null;try{s=localStorage.getItem(${JSON.stringify(KEYS.locale)});t=localStorage.getItem(${JSON.stringify(KEYS.token)})}catch(e){}`,
    `var l=pick(s,[].concat(navigator.languages||[],navigator.language),${JSON.stringify(supported)},${JSON.stringify(fallback)});`,
    'var f=files[l]||{};',
    "[f.public,f.ra,t?f.session:null].forEach(function(h){if(!h)return;var k=document.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=h;document.head.appendChild(k)})",
    '}catch(e){}})()',
  ].join('');
}

/** The languages and the default, as the public metadata the bundle carries declares them. */
function publicLocales(): { locales: string[]; defaultLocale: string } {
  const meta = JSON.parse(readFileSync(new URL('./src/generated/metadata.public.json', import.meta.url), 'utf8')) as {
    app: { locales: string[]; defaultLocale: string };
  };
  return meta.app;
}

export function preloadApp(): Plugin {
  return {
    name: 'portal-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return;
        const bundle = ctx.bundle as Record<string, ChunkLike>;
        const tags: HtmlTagDescriptor[] = appChunkFiles(bundle, ctx.chunk.fileName).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
        const { locales, defaultLocale } = publicLocales();
        tags.push({ tag: 'script', children: messagesPreloadScript(messageChunks(bundle), locales, defaultLocale), injectTo: 'head' });
        tags.push({ tag: 'link', attrs: { rel: 'icon', href: 'data:,' }, injectTo: 'head' });
        return tags;
      },
    },
  };
}
