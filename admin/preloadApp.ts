/**
 * Build step (issue 21, point 1): index.html asks for the app's chunk and its static imports at
 * once (`<link rel="modulepreload">`), beside the entry. The entry imports the app dynamically,
 * after the first language's messages and the session's metadata (admin/src/main.tsx: the app's
 * modules read the metadata as they load), so without these links the browser would only start
 * downloading the app after those answers: one more round trip chain before the sign-in page on a
 * slow link. Preloading fetches without running, so the order of evaluation is unchanged.
 */
import type { Plugin } from 'vite';

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

export function preloadApp(): Plugin {
  return {
    name: 'portal-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle || !ctx.chunk) return;
        return appChunkFiles(ctx.bundle as Record<string, ChunkLike>, ctx.chunk.fileName).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
