/**
 * PORTAL_PUBLIC_URL's check, apart from links.ts so that configuration (server/config.ts) can use it
 * without loading the generated metadata: main.ts reads the configuration before it checks that the
 * generated files exist, and must be able to say they are missing.
 */

/** Checks and normalises a public base URL: http(s), no query or fragment, no trailing slash. */
export function normalisePublicUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`PORTAL_PUBLIC_URL must be an absolute http(s) URL, not "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`PORTAL_PUBLIC_URL must be http or https, not "${raw}"`);
  if (u.search || u.hash || u.username || u.password)
    throw new Error(`PORTAL_PUBLIC_URL must be a plain base address (no query, fragment or credentials), not "${raw}"`);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}
