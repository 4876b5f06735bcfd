/**
 * The one HTTP layer every call of the admin goes through (spec point 7):
 * - sends `Authorization: Bearer <token>` when a token exists, and the UI language;
 * - replaces the stored token when a response carries `x-refreshed-token`;
 * - times out after app.requestTimeoutMs (10 minutes);
 * - turns error answers into react-admin HttpErrors whose body keeps the server's
 *   `{ code, message, errors, errorArgs }`, with field errors re-encoded for react-admin forms;
 * - a server that cannot be reached (connection refused, 502/503/504: restarting) ends no session:
 *   reads (GET, and calls marked retryWhileUnavailable) wait and try again until it is back or the
 *   request times out, while the layout says it is reconnecting; writes fail with
 *   error.serverUnavailable (they are never sent twice);
 * - HTTP 401 opens the login-timeout dialog (once, however many calls fail together);
 *   a 403 `error.passwordMustChange` opens the forced change-password dialog;
 * - file answers (Content-Disposition) come back as a Blob with their file name; PDFs pass through;
 * - the legacy envelope (`status` 200 or 1) is checked by legacyPost().
 */
import { HttpError } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { authEvents } from './authEvents.ts';
import { getToken, setAccountStatus, setToken } from './storage.ts';
import { connection, SERVER_UNAVAILABLE, UNAVAILABLE_STATUSES } from './connection.ts';
import { currentLocale, translate } from './i18nProvider.ts';

export const REFRESH_HEADER = 'x-refreshed-token';

export interface RequestOptions extends Omit<RequestInit, 'headers'> {
  headers?: HeadersInit;
  /** the 401 dialog is not wanted (login, the session check that redirects to login itself) */
  skipAuthDialog?: boolean;
  /** send no bearer token (the login call) */
  anonymous?: boolean;
  timeoutMs?: number;
  /**
   * wait for an unreachable server and try again (default: for GET and HEAD only). Only for calls
   * that change nothing: a POST that reached a server behind a failing proxy must not run twice.
   */
  retryWhileUnavailable?: boolean;
}

export interface ServerErrorBody {
  code?: string;
  message?: string;
  errors?: Record<string, string>;
  errorArgs?: Record<string, Record<string, string | number>>;
  errorId?: string;
  [k: string]: unknown;
}

/**
 * react-hook-form keeps error messages as strings; react-admin's ValidationError understands the
 * prefix '@@react-admin@@' followed by JSON `{ message, args }` and translates it (ra-core
 * useInput.ts does the same for client validators). A plain key is translated as is.
 */
const RA_ERROR_PREFIX = '@@react-admin@@';
export function toFormErrors(body: ServerErrorBody): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(body.errors ?? {})) {
    const args = body.errorArgs?.[field];
    out[field] = args ? `${RA_ERROR_PREFIX}${JSON.stringify({ message: key, args })}` : key;
  }
  // shown by react-admin's useNotifyIsFormInvalid instead of its generic "form is not valid"
  if (body.message) out.root = { serverError: body.message };
  return out;
}

/** The requests under way (each one's controller), for abortRequests. */
const underWay = new Set<AbortController>();

/** AbortSignal.any is recent; link the caller's signal and our timeout by hand. */
function withTimeout(signal: AbortSignal | null | undefined, ms: number): { signal: AbortSignal; done: () => void } {
  const ctl = new AbortController();
  underWay.add(ctl);
  const timer = setTimeout(() => ctl.abort(new DOMException('timeout', 'TimeoutError')), ms);
  const onAbort = () => ctl.abort(signal?.reason);
  if (signal) {
    if (signal.aborted) ctl.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: ctl.signal,
    done: () => {
      underWay.delete(ctl);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

async function errorFrom(res: Response): Promise<HttpError> {
  let body: ServerErrorBody;
  try {
    const text = await res.text();
    body = text ? (JSON.parse(text) as ServerErrorBody) : {};
  } catch {
    body = {};
  }
  if (body.errors && typeof body.errors === 'object') {
    body = { ...body, fieldErrors: body.errors, errors: toFormErrors(body) as Record<string, string> };
  }
  const message = body.message || res.statusText || translate('error.generic');
  return new HttpError(message, res.status, body);
}

/**
 * Tests: aborts every request still under way. A read waits for an unreachable server for up to
 * the request timeout (10 minutes), asking again and again: one that a test left behind (a page
 * it unmounted) must not ask the next test's fetch (tests/admin/setup.ts).
 */
export function abortRequests(): void {
  for (const ctl of underWay) ctl.abort(new DOMException('aborted by abortRequests', 'AbortError'));
  underWay.clear();
}

/** Waits `ms`, or less when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The first wait before trying an unreachable server again, and the longest (doubling in between). */
export const RECONNECT_DELAY_MS = { first: 250, max: 3000 };

/** The error of a call that found no server (status 0: no answer at all). */
function unavailableError(status: number): HttpError {
  return new HttpError(translate(SERVER_UNAVAILABLE), status, { code: SERVER_UNAVAILABLE, message: translate(SERVER_UNAVAILABLE) });
}

/**
 * fetch(), and while the server cannot be reached (no answer, or 502/503/504) the same request
 * again after a growing pause, as long as `retry` and the timeout allow. The layout shows that the
 * call is waiting (connection.ts).
 */
async function fetchWhileUnavailable(url: string, init: RequestInit, signal: AbortSignal, retry: boolean): Promise<Response> {
  let delay = RECONNECT_DELAY_MS.first;
  let endWait: (() => void) | null = null;
  try {
    for (;;) {
      let status = 0;
      try {
        const res = await fetch(url, { ...init, signal });
        if (!UNAVAILABLE_STATUSES.has(res.status)) return res;
        status = res.status;
      } catch (e) {
        // our timeout or the caller's abort: not the server's absence
        if (signal.aborted) throw e;
      }
      if (!retry || signal.aborted) throw unavailableError(status);
      endWait ??= connection.wait();
      await pause(delay, signal);
      if (signal.aborted) throw unavailableError(status);
      delay = Math.min(delay * 2, RECONNECT_DELAY_MS.max);
    }
  } finally {
    endWait?.();
  }
}

/** fetch() with the portal's headers, token refresh, timeout and error mapping. Resolves only 2xx. */
export async function fetchRaw(url: string, options: RequestOptions = {}): Promise<Response> {
  const { skipAuthDialog, anonymous, timeoutMs, headers: given, signal, retryWhileUnavailable, ...init } = options;
  const headers = new Headers(given);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = anonymous ? null : getToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  headers.set('Accept-Language', currentLocale());
  if (typeof init.body === 'string' && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');

  const method = (init.method ?? 'GET').toUpperCase();
  const retry = retryWhileUnavailable ?? (method === 'GET' || method === 'HEAD');
  const t = withTimeout(signal, timeoutMs ?? metadata.app.requestTimeoutMs);
  let res: Response;
  try {
    res = await fetchWhileUnavailable(url, { ...init, headers }, t.signal, retry);
  } finally {
    t.done();
  }
  // a refreshed token may come with any answer; only adopt it while still logged in
  const fresh = res.headers.get(REFRESH_HEADER);
  if (fresh && getToken()) setToken(fresh);
  if (res.ok) return res;

  const err = await errorFrom(res);
  const code = (err.body as ServerErrorBody | undefined)?.code;
  if (res.status === 401 && token && !skipAuthDialog) authEvents.requestRelogin(err.message);
  if (res.status === 403 && code === 'error.passwordMustChange') {
    setAccountStatus(602);
    authEvents.requirePasswordChange();
  }
  throw err;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: string;
  // untyped as in react-admin's fetchUtils.fetchJson, whose callers (ra-data-simple-rest) read it freely
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** fetchUtils.fetchJson-compatible client for ra-data-simple-rest. */
export async function httpClient(url: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const res = await fetchRaw(url, options);
  const body = await res.text();
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, body, json };
}

/** The file name of a Content-Disposition header: RFC 5987 `filename*` first (Chinese names), then `filename`. */
export function fileNameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(disposition);
  if (plain) return (plain[2] ?? plain[1]).trim();
  return null;
}

export interface FileResult {
  blob: Blob;
  fileName: string;
  contentType: string;
}

export const isFileResponse = (res: Response): boolean => {
  const type = res.headers.get('content-type') ?? '';
  return !!res.headers.get('content-disposition') || (!!type && !type.includes('json') && !type.startsWith('text/plain'));
};

/**
 * Reads a file answer. A file must name itself in Content-Disposition (spec 7); a PDF passes
 * through even without one (it is shown or printed, not saved).
 */
export async function readFile(res: Response): Promise<FileResult> {
  const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
  const name = fileNameFrom(res.headers.get('content-disposition'));
  const blob = await res.blob();
  if (!name && !contentType.includes('pdf')) throw new HttpError(translate('error.generic'), res.status, { code: 'error.generic' });
  return { blob, fileName: name ?? 'document.pdf', contentType };
}

/** Saves a Blob through a temporary link (the browser's download). */
export function saveFile(file: FileResult): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // give the browser time to start the download before the URL dies
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Legacy envelope (spec 7): a JSON body must carry status 200 or 1, else it is a business failure. */
export const envelopeOk = (json: unknown): boolean => {
  const s = (json as { status?: unknown } | null)?.status;
  return s === 200 || s === 1 || s === '200' || s === '1';
};

export async function legacyPost<T = unknown>(url: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const { json, status } = await httpClient(url, {
    ...options,
    method: 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!envelopeOk(json)) {
    const message = (json as { message?: string } | undefined)?.message || translate('error.generic');
    throw new HttpError(message, status, json ?? {});
  }
  return json as T;
}
