/** The data provider: simple-rest wire format over our client, actions, files, export, batched bulk calls. */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_SIZE, createDataProvider } from '../../admin/src/providers/dataProvider.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { setToken } from '../../admin/src/providers/storage.ts';
import { mockFetch, resetBrowserState } from './helpers.ts';

const dp = createDataProvider('/api');
let saved: { name: string; href: string }[] = [];

beforeAll(async () => {
  await preloadMessages('en-US');
  createI18nProvider('en-US');
});
beforeEach(() => {
  setToken('tok');
  saved = [];
  // spied, not assigned: vi.restoreAllMocks puts the originals back for the files after this one
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  resetBrowserState();
});

describe('simple-rest', () => {
  it('getList speaks sort/range/filter and reads Content-Range', async () => {
    const { calls } = mockFetch(() => ({ json: [{ id: 1 }], headers: { 'content-range': 'orders 0-0/42' } }));
    const r = await dp.getList('orders', { pagination: { page: 1, perPage: 500 }, sort: { field: 'orderNo', order: 'ASC' }, filter: { status: '1' } });
    expect(r.total).toBe(42);
    const u = new URL(calls[0].url, 'http://x');
    expect(u.pathname).toBe('/api/orders');
    expect(JSON.parse(u.searchParams.get('range')!)).toEqual([0, 499]);
    expect(JSON.parse(u.searchParams.get('sort')!)).toEqual(['orderNo', 'ASC']);
    expect(JSON.parse(u.searchParams.get('filter')!)).toEqual({ status: '1' });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
    expect(u.searchParams.has('screen')).toBe(false);
    // no Range header: with one, Chromium asks for an uncompressed answer
    expect(calls[0].headers.has('Range')).toBe(false);
  });

  it('getList of a list screen (meta.screen) asks for its lean page', async () => {
    const { calls } = mockFetch(() => ({ json: [{ id: 1 }], headers: { 'content-range': 'orders 0-0/42' } }));
    const r = await dp.getList('orders', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'orderNo', order: 'ASC' },
      filter: {},
      meta: { screen: 'orderSearch' },
    });
    expect(r.total).toBe(42);
    const u = new URL(calls[0].url, 'http://x');
    expect(u.searchParams.get('screen')).toBe('orderSearch');
    expect(JSON.parse(u.searchParams.get('range')!)).toEqual([10, 19]);
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
  });
});

describe('runAction', () => {
  it('single: POST /api/<res>/<id>/actions/<action> with the input', async () => {
    const { calls } = mockFetch(() => ({ json: { id: 7, status: '1' } }));
    const r = await dp.runAction('orders', { id: 7, action: 'confirm', data: { shipQty: 3, version: 2 } });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url).toBe('/api/orders/7/actions/confirm');
    expect(JSON.parse(calls[0].body as string)).toEqual({ shipQty: 3, version: 2 });
    expect(r).toEqual({ data: { id: 7, status: '1' } });
  });
  it('bulk: POST /api/<res>/actions/<action> with { ids, ...input }', async () => {
    const { calls } = mockFetch(() => ({ json: { data: [{ id: 1 }, { id: 2 }], message: 'Shipped successfully!' } }));
    const r = await dp.runAction('orders', { ids: [1, 2], action: 'ship', data: { qty: 1 } });
    expect(calls[0].url).toBe('/api/orders/actions/ship');
    expect(JSON.parse(calls[0].body as string)).toEqual({ ids: [1, 2], qty: 1 });
    expect(r).toEqual({ data: [{ id: 1 }, { id: 2 }], message: 'Shipped successfully!' });
  });
  it('collection: no id, no ids', async () => {
    const { calls } = mockFetch(() => ({ json: { data: [], result: {}, message: 'ok' } }));
    await dp.runAction('consulting-fee-items', { action: 'import', data: { a: 1 } });
    expect(calls[0].url).toBe('/api/consulting-fee-items/actions/import');
    expect(JSON.parse(calls[0].body as string)).toEqual({ a: 1 });
  });
  it('a file answer is downloaded under its Content-Disposition name', async () => {
    mockFetch(() => ({
      body: '%PDF-1.4',
      headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''%E4%BA%A4%E8%B4%A7%E5%8D%A1.pdf` },
    }));
    const r = await dp.runAction('orders', { id: 7, action: 'printDeliveryCards', data: { printQty: 2 } });
    expect(r.data).toBeNull();
    expect(r.file?.fileName).toBe('交货卡.pdf');
    expect(saved).toEqual([{ name: '交货卡.pdf', href: 'blob:x' }]);
  });
  it('an action error keeps the server body', async () => {
    mockFetch(() => ({ status: 409, json: { code: 'error.orderAlreadyConfirmed', message: 'The order has already been confirmed' } }));
    const e = await dp.runAction('orders', { id: 7, action: 'confirm' }).catch((x) => x);
    expect(e.status).toBe(409);
    expect(e.body.code).toBe('error.orderAlreadyConfirmed');
    expect(e.message).toBe('The order has already been confirmed');
  });
});

describe('files and export', () => {
  it('upload: multipart with the fields first and the file last', async () => {
    const { calls } = mockFetch(() => ({ status: 201, json: { id: 3, fileName: 'a.pdf' } }));
    const file = new File(['x'], 'a.pdf', { type: 'application/pdf' });
    const r = await dp.upload('notice-attachments', { data: { noticeId: 5 }, file, overwrite: true });
    expect(calls[0].url).toBe('/api/notice-attachments/upload?overwrite=true');
    const form = calls[0].body as FormData;
    expect([...form.keys()]).toEqual(['noticeId', 'file']);
    expect(form.get('noticeId')).toBe('5');
    expect(calls[0].headers.has('Content-Type')).toBe(false);
    expect(r.data).toEqual({ id: 3, fileName: 'a.pdf' });
  });
  it('download saves the file; inline returns it for preview', async () => {
    const { calls } = mockFetch(() => ({ body: 'x', headers: { 'content-type': 'image/png', 'content-disposition': 'inline; filename="p.png"' } }));
    const r = await dp.download('claim-attachments', 4, { inline: true });
    expect(calls[0].url).toBe('/api/claim-attachments/4/download?inline=true');
    expect(r.data.fileName).toBe('p.png');
    expect(saved).toEqual([]);
    await dp.download('claim-attachments', 4);
    expect(saved.map((s) => s.name)).toEqual(['p.png']);
  });
  it('a non-PDF file without a name is refused; a PDF passes through', async () => {
    mockFetch(() => ({ body: 'x', headers: { 'content-type': 'application/octet-stream' } }));
    await expect(dp.download('notice-attachments', 1)).rejects.toThrow();
    mockFetch(() => ({ body: '%PDF', headers: { 'content-type': 'application/pdf' } }));
    await expect(dp.download('notice-attachments', 1, { inline: true })).resolves.toMatchObject({ data: { contentType: 'application/pdf' } });
  });
  it('exportList: GET /api/<res>/export?screen&filter&sort, then saves', async () => {
    const { calls } = mockFetch(() => ({
      body: 'x',
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': 'attachment; filename="orders.xlsx"',
      },
    }));
    await dp.exportList('orders', { screen: 'orderShip', filter: { status: '1' }, sort: { field: 'orderNo', order: 'DESC' } });
    const u = new URL(calls[0].url, 'http://x');
    expect(u.pathname).toBe('/api/orders/export');
    expect(u.searchParams.get('screen')).toBe('orderShip');
    expect(JSON.parse(u.searchParams.get('filter')!)).toEqual({ status: '1' });
    expect(JSON.parse(u.searchParams.get('sort')!)).toEqual(['orderNo', 'DESC']);
    expect(saved.map((s) => s.name)).toEqual(['orders.xlsx']);
  });
});

describe('bulk update / delete', () => {
  it(`never runs more than ${BATCH_SIZE} calls at once`, async () => {
    let running = 0;
    let peak = 0;
    const { calls } = mockFetch(async (c) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      return { json: { id: Number(c.url.split('/').pop()) } };
    });
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    const r = await dp.deleteMany('notices', { ids });
    expect(r.data).toEqual(ids);
    expect(calls).toHaveLength(23);
    expect(calls.every((c) => c.method === 'DELETE')).toBe(true);
    expect(peak).toBeLessThanOrEqual(BATCH_SIZE);
    const u = await dp.updateMany('notices', { ids: [1, 2], data: { title: 'x' } });
    expect(u.data).toEqual([1, 2]);
  });
});
