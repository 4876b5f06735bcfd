/**
 * Build step (issue 21): library modules the sign-in page downloads but never runs, replaced by
 * lighter ones that do the same for this app. Each entry names the module as it is resolved (a
 * file inside node_modules) and what takes its place; nothing else of the library changes.
 *
 * - ra-core's react-router adapter imports `createHashRouter` and react-router's `RouterProvider`
 *   for an app rendered outside a router: the data router, in the first script although the
 *   portal renders react-admin inside its BrowserRouter (src/routing/reactRouterAdapter.ts).
 * - node-polyglot's `object.entries` is the es-shims polyfill of `Object.entries`, with
 *   get-intrinsic, call-bind, define-properties and a dozen more helpers (about 17 kB of plain
 *   script); every browser the portal supports has `Object.entries` itself (src/shims/).
 * - lodash's `isEqual` (react-admin's store, resource definitions and deep-compared effects) brings
 *   lodash's generic equality machinery (about 12 kB plain); src/shims/lodash-isEqual.cjs keeps its
 *   rules in a tenth of the code.
 * - MUI's CSS-variables theming (`createThemeWithVars`, `ThemeProviderWithVars` and @mui/system's
 *   CSS-variables provider, about 30 kB plain), which MUI imports for themes the portal never
 *   makes (src/shims/muiWithoutCssVars.ts), and node-polyglot's `hasown` with function-bind.
 *
 * Bytes before and after: docs/performance-wan.md, section 5.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * `specifier`: how the library imports it (only those imports are resolved twice); `module`: the
 * resolved file (forward slashes); `replacement`: the file that takes its place.
 */
export const LEAN_MODULES: { specifier: RegExp; module: RegExp; replacement: string }[] = [
  {
    specifier: /\/reactRouterProvider\.js$/,
    module: /\/node_modules\/ra-core\/dist\/routing\/adapters\/reactRouterProvider\.js$/,
    replacement: src('routing/reactRouterAdapter.ts'),
  },
  { specifier: /^object\.entries$/, module: /\/node_modules\/object\.entries\/index\.js$/, replacement: src('shims/object-entries.cjs') },
  { specifier: /^lodash\/isEqual(?:\.js)?$/, module: /\/node_modules\/lodash\/isEqual\.js$/, replacement: src('shims/lodash-isEqual.cjs') },
  {
    specifier: /\/(?:createThemeWithVars|ThemeProviderWithVars)\.js$/,
    module: /\/node_modules\/@mui\/material\/esm\/styles\/(?:createThemeWithVars|ThemeProviderWithVars)\.js$/,
    replacement: src('shims/muiWithoutCssVars.ts'),
  },
  { specifier: /^hasown$/, module: /\/node_modules\/hasown\/index\.js$/, replacement: src('shims/hasown.cjs') },
];

export function leanModules(): Plugin {
  return {
    name: 'portal-lean-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !LEAN_MODULES.some((m) => m.specifier.test(source))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      const id = resolved.id.replace(/\\/g, '/');
      return LEAN_MODULES.find((m) => m.module.test(id))?.replacement ?? resolved;
    },
  };
}
