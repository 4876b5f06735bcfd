/**
 * Where each interface's messages go: deployment settings, not metadata. Read from
 *  - the environment: PORTAL_INTERFACE_<CODE>_URL (e.g. PORTAL_INTERFACE_INTF0001_URL) and,
 *    optionally, PORTAL_INTERFACE_<CODE>_TOKEN (sent as `Authorization: Bearer <token>`);
 *  - a JSON file named by PORTAL_INTERFACES_FILE: { "<CODE>": { "url", "headers"?, "timeoutSeconds"? } },
 *    read again whenever it changes (an endpoint can be set without a restart);
 *  - options given in code (tests), which win over both; the environment wins over the file.
 * An interface without an endpoint is not an error: its messages wait, visibly ("no endpoint
 * configured" in the interface log), until one is configured.
 */
import { readFileSync, statSync } from 'node:fs';

export interface EndpointConfig {
  /** http(s) URL the batches are POSTed to */
  url: string;
  /** extra request headers (authentication, routing) */
  headers?: Record<string, string>;
  /** overrides the delivery policy's timeout for this interface */
  timeoutSeconds?: number;
}

export type Endpoints = Record<string, EndpointConfig>;

/** The problems of one endpoint's settings, or null when it is usable. */
export function endpointProblem(e: unknown): string | null {
  if (!e || typeof e !== 'object') return 'not an object';
  const c = e as Partial<EndpointConfig>;
  let url: URL;
  try {
    url = new URL(String(c.url));
  } catch {
    return `url ${JSON.stringify(c.url)} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `url must be http or https, not ${url.protocol}`;
  if (c.headers !== undefined && (typeof c.headers !== 'object' || Object.values(c.headers).some((v) => typeof v !== 'string')))
    return 'headers must map names to strings';
  if (c.timeoutSeconds !== undefined && !(Number.isFinite(c.timeoutSeconds) && c.timeoutSeconds > 0 && c.timeoutSeconds <= 600))
    return 'timeoutSeconds must be a number from 1 to 600';
  return null;
}

/** Endpoints from the environment for the given interface codes. */
export function endpointsFromEnv(env: Record<string, string | undefined>, codes: readonly string[]): Endpoints {
  const out: Endpoints = {};
  for (const code of codes) {
    const url = env[`PORTAL_INTERFACE_${code}_URL`];
    if (!url) continue;
    const token = env[`PORTAL_INTERFACE_${code}_TOKEN`];
    out[code] = { url, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) };
  }
  return out;
}

/**
 * The endpoints file, read again when its modification time changes. A missing file means no
 * endpoints from it; a broken one is reported (`problem`) and gives none until it is fixed.
 */
export class EndpointsFile {
  private mtime = -1;
  private cached: Endpoints = {};
  problem: string | null = null;

  constructor(readonly path: string) {}

  read(): Endpoints {
    let mtime: number;
    try {
      mtime = statSync(this.path).mtimeMs;
    } catch {
      this.mtime = -1;
      this.cached = {};
      this.problem = null;
      return this.cached;
    }
    if (mtime === this.mtime) return this.cached;
    this.mtime = mtime;
    try {
      const data = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('expected an object: { "<interface code>": { "url": ... } }');
      const out: Endpoints = {};
      const problems: string[] = [];
      for (const [code, e] of Object.entries(data as Record<string, unknown>)) {
        if (code === '$comment') continue;
        const p = endpointProblem(e);
        if (p) problems.push(`${code}: ${p}`);
        else out[code] = e as EndpointConfig;
      }
      this.cached = out;
      this.problem = problems.length ? `${this.path}: ${problems.join('; ')}` : null;
    } catch (err) {
      this.cached = {};
      this.problem = `${this.path}: ${(err as Error).message}`;
    }
    return this.cached;
  }
}
