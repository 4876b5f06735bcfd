/**
 * Build step (issue 21): every text asset of admin/dist gets a brotli (`.br`, quality 11) and a gzip
 * (`.gz`, level 9) twin beside it, which the server's @fastify/static sends as they are
 * (`preCompressed`), so a script is compressed once, at build time, at the highest quality, and
 * never per request. Files that are already compressed (images, woff2) and files too small to gain
 * are left alone, as is a twin that would not be smaller than its original.
 */
import type { Plugin } from 'vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The Vite plugin: runs precompressDir on the output folder once the bundle is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
