/**
 * Build step (issue 21): every text asset of admin/dist gets a brotli (`.br`, quality 11) and a gzip
 * (`.gz`, level 9) twin beside it, which the server's @fastify/static sends as they are
 * (`preCompressed`), so a script is compressed once, at build time, at the highest quality, and
 * never per request. Files that are already compressed (images, woff2) and files too small to gain
 * are left alone, as is a twin that would not be smaller than its original.
 */
import type { Plugin } from 'vite';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

/** Extensions worth compressing (fonts in ttf/otf compress well; woff2 is brotli already). */
export const PRECOMPRESSED_EXTENSIONS = /\.(?:js|mjs|css|html|json|svg|txt|map|ttf|otf)$/;
/** Smaller files are served as they are (@fastify/static does the same). */
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Writes the `.br` and `.gz` twins of the text files under `dir`; answers how many files got them. */
export function precompressDir(dir: string): number {
  let n = 0;
  for (const path of filesUnder(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.test(path)) continue;
    const data = readFileSync(path);
    if (data.length < MIN_BYTES) continue;
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
    const gz = gzipSync(data, { level: 9 });
    if (br.length < data.length) writeFileSync(`${path}.br`, br);
    if (gz.length < data.length) writeFileSync(`${path}.gz`, gz);
    n++;
  }
  return n;
}

/**
 * Moves a finished build from `from` to `to` by renaming folders, never file by file: whoever reads
 * `to` (a server, a test) sees the old build or the new one, whole. Two builds in one tree (a
 * developer's `npm start` beside `npm test`) each build in a folder of their own, and the last to
 * finish wins; before this, the second build's `emptyOutDir` could delete the folder the first was
 * still writing its `.br` twins into (ENOENT, issue 34).
 */
export function publishDir(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    const old = `${from}-replaced`;
    try {
      renameSync(to, old);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      renameSync(from, to);
      rmSync(old, { recursive: true, force: true });
      return;
    } catch (err) {
      // another build published between our two renames: replace that one in the next round
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 10 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw err;
      rmSync(old, { recursive: true, force: true });
    }
  }
}

/**
 * The Vite plugin: the bundle is written into a folder of this build's own (`.tmp/admin-build-<pid>`
 * beside the project, so lint and git never see it), gets its twins (precompressDir), and is then
 * published as `dist` (publishDir). One hook, so the two steps run in this order.
 */
export function precompress(): Plugin {
  let outDir = '';
  let target = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    config(config) {
      const root = config.root ?? process.cwd();
      target = resolve(root, config.build?.outDir ?? 'dist');
      return { build: { outDir: resolve(root, '..', '.tmp', `admin-build-${process.pid}`), emptyOutDir: true } };
    },
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      precompressDir(outDir);
      publishDir(outDir, target);
    },
  };
}
