/** Shared helpers of the admin unit tests: a scripted fetch and a clean browser state. */
import { vi } from 'vitest';
import { authEvents } from '../../admin/src/providers/authEvents.ts';

export interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}
export type Reply = { status?: number; json?: unknown; body?: BodyInit | null; headers?: Record<string, string> };

/** Stubs global fetch: `route` answers each call; every call is recorded. */
export function mockFetch(route: (call: Call) => Reply | Promise<Reply>): { calls: Call[] } {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call: Call = { url: String(input), method: (init.method ?? 'GET').toUpperCase(), headers: new Headers(init.headers), body: init.body };
      calls.push(call);
      const r = await route(call);
      const headers = new Headers(r.headers ?? {});
      let body: BodyInit | null = r.body ?? null;
      if (r.json !== undefined) {
        body = JSON.stringify(r.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
      }
      return new Response(body, { status: r.status ?? 200, headers });
    }),
  );
  return { calls };
}

export function resetBrowserState(): void {
  localStorage.clear();
  sessionStorage.clear();
  authEvents.reset();
  vi.unstubAllGlobals();
}

export const supplierUser = {
  userId: 'sup01',
  name: '张伟',
  accountType: '3',
  roleId: 'user',
  roles: ['user'],
  admin: false,
  profile: 'supplier',
  accountStatus: 0,
  warehouseCode: 'PDC01',
  warehouseName: 'Shanghai PDC',
  isClaimWarehouse: true,
} as const;
