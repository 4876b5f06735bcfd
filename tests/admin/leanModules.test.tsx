/**
 * The build's lighter stand-ins for library modules (admin/leanModules.ts, issue 21): each does what
 * the module it replaces does for this app. The build resolves the libraries' imports to them; the
 * unit tests here import both, the original from the library itself.
 */
import { createRequire } from 'node:module';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { createTheme } from '@mui/material/styles';
import { reactRouterProvider as original } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { LEAN_MODULES, leanModules } from '../../admin/leanModules.ts';
import { reactRouterProvider as lean } from '../../admin/src/routing/reactRouterAdapter.ts';

const require = createRequire(import.meta.url);

describe("ra-core's react-router adapter without its own router", () => {
  it('offers the same primitives as ra-core’s, the same react-router ones where it passes them on', () => {
    expect(Object.keys(lean).sort()).toEqual(Object.keys(original).sort());
    for (const name of ['useLocation', 'useInRouterContext'] as const) expect(lean[name]).toBe(original[name]);
  });

  it('renders its children inside the router the app provides, with a stable navigate', () => {
    const navigates: unknown[] = [];
    function Probe() {
      navigates.push(lean.useNavigate());
      return <p>{lean.useLocation().pathname}</p>;
    }
    const { rerender } = render(
      <MemoryRouter initialEntries={['/orders']}>
        <lean.RouterWrapper>
          <Probe />
        </lean.RouterWrapper>
      </MemoryRouter>,
    );
    expect(screen.getByText('/orders')).toBeTruthy();
    rerender(
      <MemoryRouter initialEntries={['/orders']}>
        <lean.RouterWrapper>
          <Probe />
        </lean.RouterWrapper>
      </MemoryRouter>,
    );
    expect(navigates.length).toBeGreaterThan(1);
    expect(new Set(navigates).size).toBe(1);
  });

  it('refuses to render outside a router (ra-core would have made a hash router)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() =>
      render(
        <lean.RouterWrapper>
          <p>x</p>
        </lean.RouterWrapper>,
      ),
    ).toThrow(/BrowserRouter/);
    vi.mocked(console.error).mockRestore();
  });
});

describe("node-polyglot's Object.entries", () => {
  it('answers what the es-shims polyfill answers', () => {
    const polyfill = require('object.entries') as (o: unknown) => unknown;
    const shim = require('../../admin/src/shims/object-entries.cjs') as (o: unknown) => unknown;
    for (const value of [{ a: 1, b: { c: 'x' } }, ['p', 'q'], 'ab', {}]) expect(shim(value)).toEqual(polyfill(value));
  });
});

describe("lodash's isEqual", () => {
  const lodash = require('lodash/isEqual') as (a: unknown, b: unknown) => boolean;
  const lean = require('../../admin/src/shims/lodash-isEqual.cjs') as (a: unknown, b: unknown) => boolean;

  /** Values of every kind lodash tells apart, with near twins. */
  function samples(): unknown[] {
    const fn = () => 1;
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cyclic2: Record<string, unknown> = { a: 1 };
    cyclic2.self = cyclic2;
    const loop: unknown[] = [];
    loop.push(loop);
    const outer: unknown[] = [];
    outer.push([outer]);
    const left: Record<string, unknown> = {};
    const right: Record<string, unknown> = { other: left };
    left.other = right;
    class Point {
      constructor(readonly x: number) {}
    }
    const sym = Symbol('s');
    const nullProto = Object.assign(Object.create(null), { a: 1 });
    const args = (function (..._: unknown[]) {
      // eslint-disable-next-line prefer-rest-params
      return arguments;
    })(1, 2);
    const buf = new Uint8Array([1, 2, 3, 4]).buffer;
    return [
      ...[0, -0, 1, NaN, Infinity, '', '1', 'a', true, false, null, undefined, 10n, sym, Symbol('s')],
      ...[fn, () => 1, new Number(1), new String('a'), new Boolean(true), Object(sym)],
      ...[[], [1], [1, 2], [2, 1], [[1]], [undefined], new Array(1), [1, [2, { a: 3 }]]],
      ...[{}, { a: 1 }, { a: 1, b: undefined }, { b: undefined, a: 1 }, { a: { b: [1] } }, { [sym]: 1 }, { constructor: 1 }, nullProto],
      ...[new Point(1), new Point(2), { x: 1 }, args, { 0: 1, 1: 2 }, cyclic, cyclic2, { a: 1, self: { a: 1 } }, loop, outer, left, right],
      ...[new Date(0), new Date(0), new Date(1), new Date(NaN), /a/g, /a/g, /a/i, new Error('x'), new TypeError('x'), new Error('y')],
      ...[new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]]), new Map([[1, { a: 2 }]]), new Map([[{ k: 1 }, 1]]), new Map([[{ k: 1 }, 1]])],
      ...[new Set([1, 2]), new Set([2, 1]), new Set([{ a: 1 }]), new Set([{ a: 1 }]), new Set([1, 3])],
      ...[new Uint8Array([1, 2]), new Uint8Array([1, 2]), new Int8Array([1, 2]), new Float64Array([NaN]), new Float64Array([NaN])],
      ...[buf, new Uint8Array([1, 2, 3, 4]).buffer, new DataView(buf), new DataView(buf, 1), new DataView(new Uint8Array([1, 2, 3, 4]).buffer)],
    ];
  }

  it('answers what lodash answers for every pair of values of every kind', () => {
    const values = samples();
    const twins = samples(); // equal but not the same objects
    const differ: string[] = [];
    for (const [i, a] of values.entries())
      for (const [j, b] of [...values, ...twins].entries()) if (lean(a, b) !== lodash(a, b)) differ.push(`${i} ${j}: lodash ${lodash(a, b)}`);
    expect(differ).toEqual([]);
  });

  it('answers what lodash answers on random JSON-like values and their small changes (store values, filters)', () => {
    let seed = 21;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const leaf = () => [0, 1, -0, NaN, 'a', 'b', '', true, false, null, undefined][Math.floor(random() * 11)];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.4) return leaf();
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${Math.floor(random() * 3) + i}`, value(depth + 1)]));
    };
    let equalPairs = 0;
    for (let n = 0; n < 3000; n++) {
      const a = value(0);
      const b = random() < 0.5 ? structuredClone(a) : value(0);
      expect(lean(a, b), JSON.stringify([a, b])).toBe(lodash(a, b));
      if (lodash(a, b)) equalPairs++;
    }
    expect(equalPairs).toBeGreaterThan(1000); // both answers were met often
  });
});

describe('the data provider loaded on its first call', () => {
  it('offers the real provider’s methods and flag, and calls them once loaded', async () => {
    const { lazyDataProvider, loadDataProvider } = await import('../../admin/src/providers/lazyDataProvider.ts');
    const real = await loadDataProvider();
    expect(lazyDataProvider.supportAbortSignal).toBe(real.supportAbortSignal);
    // not a promise, as ra-core's own proxy; no symbol is a method
    expect((lazyDataProvider as unknown as { then?: unknown }).then).toBeUndefined();
    expect((lazyDataProvider as unknown as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
    const spy = vi.spyOn(real, 'getOne').mockResolvedValue({ data: { id: 7 } });
    await expect(lazyDataProvider.getOne('orders', { id: 7 })).resolves.toEqual({ data: { id: 7 } });
    expect(spy).toHaveBeenCalledWith('orders', { id: 7 });
    await expect((lazyDataProvider as unknown as Record<string, () => Promise<unknown>>).nothingLikeThis()).rejects.toThrow(/Unknown dataProvider function/);
  });
});

describe("MUI's CSS-variables theming, which the build leaves out", () => {
  it("is never asked for: the portal's themes, in every colour the settings offer, take MUI's plain path", async () => {
    const { buildTheme } = await import('../../admin/src/layout/theme.ts');
    const { THEME_COLORS } = await import('../../admin/src/layout/SettingsPanel.tsx');
    for (const colour of [...THEME_COLORS, undefined]) {
      const options = buildTheme(colour ?? '#1890ff');
      // MUI's createTheme calls createThemeWithVars only for these; its ThemeProvider renders CssVarsProvider only for a theme with colour schemes
      expect('cssVariables' in options || 'colorSchemes' in options, String(colour)).toBe(false);
      expect('colorSchemes' in createTheme(options)).toBe(false);
    }
    expect('colorSchemes' in createTheme()).toBe(false); // react-admin's fallback when no theme is given
  });

  it('says why when called anyway', async () => {
    const stub = await import('../../admin/src/shims/muiWithoutCssVars.ts');
    expect(() => stub.default()).toThrow(/no CSS variables/);
    expect(() => stub.CssVarsProvider()).toThrow(/no CSS variables/);
  });
});

describe("node-polyglot's hasown", () => {
  it('answers what hasown answers', () => {
    const original = require('hasown') as (o: object, k: PropertyKey) => boolean;
    const shim = require('../../admin/src/shims/hasown.cjs') as (o: object, k: PropertyKey) => boolean;
    const proto = { inherited: 1 };
    const object = Object.assign(Object.create(proto), { own: 1 });
    for (const key of ['own', 'inherited', 'missing', 'toString']) expect(shim(object, key), key).toBe(original(object, key));
  });
});

describe('the build resolves the libraries’ imports to the stand-ins', () => {
  const plugin = leanModules();
  const resolveId = plugin.resolveId as (this: unknown, source: string, importer?: string, options?: object) => Promise<unknown>;
  const context = (resolvedId: string) => ({ resolve: async () => ({ id: resolvedId }) });

  it('replaces each listed module, as the library imports it', async () => {
    const cases = [
      [
        './adapters/reactRouterProvider.js',
        '/p/node_modules/ra-core/dist/routing/RouterProviderContext.js',
        '/p/node_modules/ra-core/dist/routing/adapters/reactRouterProvider.js',
      ],
      ['object.entries', '/p/node_modules/node-polyglot/index.js', '/p/node_modules/object.entries/index.js'],
      ['lodash/isEqual.js', '/p/node_modules/ra-core/dist/store/useStore.js', '/p/node_modules/lodash/isEqual.js'],
      [
        './createThemeWithVars.js',
        '/p/node_modules/@mui/material/esm/styles/createTheme.js',
        '/p/node_modules/@mui/material/esm/styles/createThemeWithVars.js',
      ],
      ['hasown', '/p/node_modules/node-polyglot/index.js', '/p/node_modules/hasown/index.js'],
    ];
    for (const [i, [source, importer, resolved]] of cases.entries())
      expect(await resolveId.call(context(resolved), source, importer, {})).toBe(LEAN_MODULES[i].replacement);
  });

  it('leaves every other import alone', async () => {
    expect(await resolveId.call(context('/p/node_modules/react/index.js'), 'react', '/p/node_modules/ra-core/dist/index.js', {})).toBeNull();
    // the same file name elsewhere is not the library's
    const other = '/p/admin/src/reactRouterProvider.js';
    expect(await resolveId.call(context(other), './reactRouterProvider.js', '/p/admin/src/x.ts', {})).toEqual({ id: other });
  });
});
