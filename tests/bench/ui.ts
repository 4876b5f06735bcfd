/**
 * The browser-side steps. Both need the built admin (admin/dist, `npm run build`); without it they
 * report `pending` and the rest of the bench runs as usual.
 *
 *  - bundle (4.): initial JavaScript of admin/dist/index.html (its module script and the chunks it
 *    preloads) in gzip bytes, the largest chunks, and how many chunks load on demand.
 *  - ui (3.): the 500-row list rendered in headless Chromium against react-admin's stock
 *    <Datagrid>: still to be written (the list screen is being built); the step is a placeholder
 *    that says so.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './lib.ts';
import type { Ctx } from './steps.ts';
import type { StepResult } from './report.ts';

export const ADMIN_DIST = join(ROOT, 'admin', 'dist');

export async function uiRenderStep(_ctx: Ctx): Promise<StepResult> {
  if (!existsSync(join(ADMIN_DIST, 'index.html'))) return { status: 'pending', note: 'pending: UI not built (admin/dist missing; run npm run build)' };
  return { status: 'pending', note: 'pending: the list-render harness (Chromium, 500-row orders list vs stock <Datagrid>) is not written yet' };
}

export async function bundleStep(_ctx: Ctx): Promise<StepResult> {
  const index = join(ADMIN_DIST, 'index.html');
  if (!existsSync(index)) return { status: 'pending', note: 'pending: UI not built (admin/dist missing; run npm run build)' };
  const html = readFileSync(index, 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) refs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) refs.add(m[1]);
  const all: { file: string; bytes: number; gzipBytes: number; initial: boolean }[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.js')) {
        const rel = p.slice(ADMIN_DIST.length).replace(/\\/g, '/');
        const body = readFileSync(p);
        all.push({ file: rel, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length, initial: refs.has(rel) || refs.has(rel.slice(1)) });
      }
    }
  };
  walk(ADMIN_DIST);
  const initial = all.filter((c) => c.initial);
  return {
    status: 'ok',
    initialGzipBytes: initial.reduce((a, c) => a + c.gzipBytes, 0),
    initialBytes: initial.reduce((a, c) => a + c.bytes, 0),
    initialChunks: initial.map((c) => c.file),
    onDemandChunks: all.length - initial.length,
    largest: [...all].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 5),
    gzipLevel: 9,
  };
}
