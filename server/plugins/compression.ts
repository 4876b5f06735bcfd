/**
 * Compressed answers (issue 21): @fastify/compress on every route, brotli or gzip as the client's
 * `Accept-Encoding` allows (brotli first), from COMPRESS_THRESHOLD bytes on. Registered before the
 * admin's static files, which are served precompressed (`.br` / `.gz` beside each asset, written by
 * the build: admin/precompress.ts) and therefore never compressed again here: an answer that
 * already carries a Content-Encoding is passed through.
 *
 * Only text compresses well: JSON, text, XML, JavaScript, CSS, SVG. Downloads that are compressed
 * already (xlsx exports are zip files, PDFs deflate their streams, images, archives) and unknown
 * binary types (`application/octet-stream`) are sent as they are; so is an event stream, which must
 * reach the client line by line.
 *
 * The qualities are measured, not guessed (docs/performance-wan.md, "Choosing the quality"): on a
 * 500-row order page (393 kB of JSON) brotli 1 costs 1.2 ms of CPU for 29 kB, brotli 3 2.2 ms for
 * 25 kB, brotli 4 4.7 ms, node's default 11 1.4 s (!); gzip 1 1.7 ms for 36 kB, gzip 6 4.8 ms for
 * 27 kB. A page costs about 6 ms of server CPU, and compression may add at most 15%: brotli 1 and
 * gzip 1 stay within it and still send a 500-row page in well under 40 kB.
 */
import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import { compressWholeAnswers } from './compress-whole.ts';

/** Answers below this many bytes go out as they are: a packet holds them anyway. */
export const COMPRESS_THRESHOLD = 1024;
/** brotli quality (0-11); node's default is 11, far too slow for answers built per request */
export const BROTLI_QUALITY = 1;
/** gzip level (1-9) */
export const GZIP_LEVEL = 1;

/** Content types worth compressing; everything else (xlsx, PDF, images, zip, octet-stream, event streams) is not. */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)|image\/svg\+xml)/i;

export function compressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

export default fp(
  async (app) => {
    // string and Buffer answers (all JSON) in one synchronous call; the library's hook, which runs
    // after this app-level one, passes them on and compresses the streams
    app.addHook('onSend', compressWholeAnswers({ threshold: COMPRESS_THRESHOLD, brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL, compressible }));
    await app.register(compress, {
      global: true,
      // request bodies stay as they are: a compressed body could expand past the body limit
      globalDecompression: false,
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD,
      customTypes: (type: string) => compressible(type),
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
      zlibOptions: { level: GZIP_LEVEL },
    });
  },
  { name: 'compression' },
);
