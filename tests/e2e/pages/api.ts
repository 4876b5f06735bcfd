/**
 * The API beside the browser, for specs that check what the user's clicks did (or pick the rows
 * to click): a bearer token of a demo account, one record, the first record of a filter, a new
 * record saved from its form as stored.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { expectNotification, metadata, screen, t } from './screens.ts';

/**
 * GETs retry a connection reset, as a browser does: a page's request context keeps its connections
 * alive, and one the server closes for idleness just as a request goes out resets (ECONNRESET).
 * Only for reads: a retried write could be applied twice.
 */
const IDEMPOTENT_RETRIES = 2;

export async function token(request: APIRequestContext, user: string, warehouse = 'PDC01'): Promise<string> {
  const r = await request.post('/connect/token', { form: { grant_type: 'password', username: user, password: 'demo2026A', warehouse } });
  expect(r.status()).toBe(200);
  return (await r.json()).access_token as string;
}

export async function getRecord(request: APIRequestContext, tok: string, resource: string, id: string): Promise<Record<string, unknown>> {
  const r = await request.get(`/api/${resource}/${id}`, { headers: { authorization: `Bearer ${tok}` }, maxRetries: IDEMPOTENT_RETRIES });
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
    maxRetries: IDEMPOTENT_RETRIES,
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

/**
 * Two confirmed order lines of the demo data as sup02 (of S002) sees them, with sup02's token: one
 * S001 ships directly and S002 only purchases (S002 may not act on it), and one of S002's own.
 */
export async function sharedAndOwnLines(request: APIRequestContext): Promise<{ tok: string; shared: Record<string, unknown>; own: Record<string, unknown> }> {
  const tok = await token(request, 'sup02');
  const confirmed = await listWhere(request, tok, 'orders', { status: codeOf('purchaseOrderStatus', 'confirmed') });
  const shared = confirmed.find((o) => o.directSupplierCode === 'S001' && o.purchasingSupplierCode === 'S002');
  const own = confirmed.find((o) => o.directSupplierCode === 'S002');
  expect(shared, 'a confirmed line S001 ships and S002 purchases').toBeTruthy();
  expect(own, "a confirmed line of S002's own").toBeTruthy();
  return { tok, shared: shared!, own: own! };
}

/** Saves the open create form of `resource`: Save clicked, the create answered 201, the success notice in `locale`; answers the record as stored. */
export async function saveNew(page: Page, request: APIRequestContext, tok: string, resource: string, locale: Locale): Promise<Record<string, unknown>> {
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/${resource}` && r.request().method() === 'POST');
  await screen.button(page, 'save').click();
  const res = await saved;
  expect(res.status()).toBe(201);
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  return getRecord(request, tok, resource, String((await res.json()).id));
}
