/**
 * ra-data-simple-rest over our httpClient (server/README.md: the API speaks simple-rest exactly),
 * plus the calls simple-rest has no verb for: business actions (single, bulk, collection), file
 * upload and download, and the server-side list export. updateMany/deleteMany run in small
 * sequential batches instead of simple-rest's one-request-per-id all at once (a 500-row page would
 * fire 500 parallel calls; browsers allow about 6 per host anyway).
 */
import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, DeleteManyParams, Identifier, RaRecord, UpdateManyParams } from 'react-admin';
import { fetchRaw, httpClient, isFileResponse, readFile, saveFile, type FileResult } from './httpClient.ts';

export const API_URL = '/api';
/** concurrent requests per batch of updateMany / deleteMany */
export const BATCH_SIZE = 5;

export interface RunActionParams {
  /** one record: POST /api/<res>/<id>/actions/<action> */
  id?: Identifier;
  /** several records (one transaction): POST /api/<res>/actions/<action> with { ids, ...data } */
  ids?: Identifier[];
  action: string;
  /** the action's input (and optionally `version` for a single record) */
  data?: object;
}
export interface RunActionResult {
  /** the updated record (single), the updated records (bulk), or null when a file was downloaded */
  data: unknown;
  /** the server's success message of a bulk or collection action, translated */
  message?: string;
  /** set when the answer was a file (it has already been saved by the browser) */
  file?: FileResult;
}
export interface UploadParams {
  data: Record<string, unknown>;
  file: File | Blob;
  fileName?: string;
  overwrite?: boolean;
}
export interface DownloadOptions {
  /** ask for inline disposition (preview a PDF or an image) and do not save: use result.data.blob */
  inline?: boolean;
}
export interface ExportParams {
  filter?: Record<string, unknown>;
  sort?: { field: string; order: 'ASC' | 'DESC' | string };
  /** the screen whose columns the export follows */
  screen: string;
}

export interface PortalDataProvider extends DataProvider {
  runAction(resource: string, params: RunActionParams): Promise<RunActionResult>;
  upload(resource: string, params: UploadParams): Promise<{ data: RaRecord }>;
  download(resource: string, id: Identifier, opts?: DownloadOptions): Promise<{ data: FileResult }>;
  exportList(resource: string, params: ExportParams): Promise<{ data: null; file: FileResult }>;
}

const enc = encodeURIComponent;

/** Runs fn over items, `size` at a time, one batch after another; stops at the first failure. */
async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return out;
}

export function createDataProvider(apiUrl = API_URL): PortalDataProvider {
  // simple-rest adds a Range header to list calls (for CORS setups); the server reads the range
  // parameter, and with a Range header Chromium asks for an uncompressed answer (Accept-Encoding:
  // identity), which made a 500-row page 260 kB on the wire instead of 15-20 kB (issue 21)
  const rest = (url: string, options: { headers?: HeadersInit } & Record<string, unknown> = {}) => {
    const headers = new Headers(options.headers);
    headers.delete('Range');
    return httpClient(url, { ...options, headers });
  };
  const base = simpleRestProvider(apiUrl, rest as never);

  const runAction = async (resource: string, params: RunActionParams): Promise<RunActionResult> => {
    const single = params.id !== undefined && params.id !== null && !params.ids;
    const url = single
      ? `${apiUrl}/${resource}/${enc(String(params.id))}/actions/${enc(params.action)}`
      : `${apiUrl}/${resource}/actions/${enc(params.action)}`;
    const body = single ? { ...(params.data ?? {}) } : { ...(params.ids ? { ids: params.ids } : {}), ...(params.data ?? {}) };
    const res = await fetchRaw(url, { method: 'POST', body: JSON.stringify(body), headers: { Accept: 'application/json, application/pdf, */*' } });
    if (isFileResponse(res)) {
      const file = await readFile(res);
      saveFile(file);
      return { data: null, file };
    }
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    // bulk and collection answers are { data, message }; a single action answers the record
    if (!single && json && typeof json === 'object' && 'data' in json) return { data: json.data, message: json.message };
    return { data: json };
  };

  const upload = async (resource: string, params: UploadParams): Promise<{ data: RaRecord }> => {
    const form = new FormData();
    // fields first: the server reads them before it streams the file part
    for (const [k, v] of Object.entries(params.data ?? {})) {
      if (v !== undefined && v !== null) form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const name = params.fileName ?? (params.file instanceof File ? params.file.name : 'file');
    form.append('file', params.file, name);
    const { json } = await httpClient(`${apiUrl}/${resource}/upload${params.overwrite ? '?overwrite=true' : ''}`, { method: 'POST', body: form });
    return { data: json };
  };

  const download = async (resource: string, id: Identifier, opts: DownloadOptions = {}): Promise<{ data: FileResult }> => {
    const res = await fetchRaw(`${apiUrl}/${resource}/${enc(String(id))}/download${opts.inline ? '?inline=true' : ''}`, { headers: { Accept: '*/*' } });
    const file = await readFile(res);
    if (!opts.inline) saveFile(file);
    return { data: file };
  };

  const exportList = async (resource: string, params: ExportParams): Promise<{ data: null; file: FileResult }> => {
    const q = new URLSearchParams({ screen: params.screen, filter: JSON.stringify(params.filter ?? {}) });
    if (params.sort?.field) q.set('sort', JSON.stringify([params.sort.field, params.sort.order]));
    const res = await fetchRaw(`${apiUrl}/${resource}/export?${q.toString()}`, { headers: { Accept: '*/*' } });
    const file = await readFile(res);
    saveFile(file);
    return { data: null, file };
  };

  return {
    ...base,
    // react-query cancels list calls the user no longer waits for (fetchRaw links the signal)
    supportAbortSignal: true,
    // a list screen names itself (meta.screen): the server answers a lean page, only the fields
    // that screen needs (server/routes/lean-list.ts); simple-rest builds the rest of the call
    getList: (resource, params) => {
      const screen = (params.meta as { screen?: unknown } | undefined)?.screen;
      if (typeof screen !== 'string' || !screen) return base.getList(resource, params);
      const lean = simpleRestProvider(apiUrl, ((url: string, options: Parameters<typeof rest>[1]) => rest(`${url}&screen=${enc(screen)}`, options)) as never);
      return lean.getList(resource, params);
    },
    updateMany: async (resource: string, params: UpdateManyParams) => {
      const data = await inBatches(params.ids, BATCH_SIZE, async (id) => {
        const { json } = await httpClient(`${apiUrl}/${resource}/${enc(String(id))}`, { method: 'PUT', body: JSON.stringify(params.data) });
        return (json?.id ?? id) as Identifier;
      });
      return { data };
    },
    deleteMany: async (resource: string, params: DeleteManyParams) => {
      const data = await inBatches(params.ids, BATCH_SIZE, async (id) => {
        // text/plain like simple-rest: Fastify refuses an empty application/json body
        const { json } = await httpClient(`${apiUrl}/${resource}/${enc(String(id))}`, { method: 'DELETE', headers: { 'Content-Type': 'text/plain' } });
        return (json?.id ?? id) as Identifier;
      });
      return { data };
    },
    runAction,
    upload,
    download,
    exportList,
  } as PortalDataProvider;
}

export const dataProvider = createDataProvider();
