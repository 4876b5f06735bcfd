/**
 * The build's lighter stand-ins for library modules (admin/leanModules.ts, issue 21): each does what
 * the module it replaces does for this app. The build resolves the libraries' imports to them; the
 * unit tests here import both, the original from the library itself.
 */
import { createRequire } from 'node:module';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
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
    const polyfill = require('object.entries') as (o: object) => unknown;
    const shim = require('../../admin/src/shims/object-entries.cjs') as (o: object) => unknown;
    for (const value of [{ a: 1, b: { c: 'x' } }, ['p', 'q'], 'ab', {}]) expect(shim(value)).toEqual(polyfill(value));
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
