/**
 * The API beside the browser, for specs that check what the user's clicks did (or pick the rows
 * to click): a bearer token of a demo account, one record, the first record of a filter.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { metadata } from './screens.ts';

export async function token(request: APIRequestContext, user: string, warehouse = 'PDC01'): Promise<string> {
  const r = await request.post('/connect/token', { form: { grant_type: 'password', username: user, password: 'demo2026A', warehouse } });
  expect(r.status()).toBe(200);
  return (await r.json()).access_token as string;
}

export async function getRecord(request: APIRequestContext, tok: string, resource: string, id: string): Promise<Record<string, unknown>> {
  const r = await request.get(`/api/${resource}/${id}`, { headers: { authorization: `Bearer ${tok}` } });
  expect(r.status()).toBe(200);
  return r.json();
}

/** Up to `n` records of `resource` matching `filter` (the list protocol). */
export async function listWhere(
  request: APIRequestContext,
  tok: string,
  resource: string,
  filter: Record<string, unknown>,
  n = 500,
): Promise<Record<string, unknown>[]> {
  const r = await request.get(`/api/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}&range=${encodeURIComponent(`[0,${n - 1}]`)}`, {
    headers: { authorization: `Bearer ${tok}` },
  });
  expect(r.status()).toBe(200);
  return (await r.json()) as Record<string, unknown>[];
}

export async function firstWhere(request: APIRequestContext, tok: string, resource: string, filter: Record<string, unknown>): Promise<Record<string, unknown>> {
  const rows = await listWhere(request, tok, resource, filter, 1);
  expect(rows.length).toBe(1);
  return rows[0];
}

/** The stored code of a code-table key. */
export const codeOf = (table: string, key: string): string => metadata.codeTables[table].values.find((v) => v.key === key)!.code;
