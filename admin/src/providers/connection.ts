/**
 * Whether the server can be reached. A server that is restarting (the dev loop after a metadata
 * edit, a deployment, a crashed worker being replaced) answers 502/503/504 through a proxy, or
 * refuses the connection: that is not the end of a session. Reads wait and try again (httpClient),
 * the layout shows that it is reconnecting, and the token stays; only a 401 says the session is
 * over. A module-level store like authEvents: the HTTP layer runs outside React.
 */

/** Answers of a proxy or server that cannot serve right now (Vite's proxy answers 502 while nothing listens). */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The error code of a call that failed because the server could not be reached (status 0: no answer). */
export const SERVER_UNAVAILABLE = 'error.serverUnavailable';

/** True for an error (or status) that means "the server is not there right now", not "you may not". */
export function isServerUnavailable(errorOrStatus: unknown): boolean {
  const status = typeof errorOrStatus === 'number' ? errorOrStatus : (errorOrStatus as { status?: unknown } | null)?.status;
  const code = (errorOrStatus as { body?: { code?: unknown } } | null)?.body?.code;
  return code === SERVER_UNAVAILABLE || status === 0 || (typeof status === 'number' && UNAVAILABLE_STATUSES.has(status));
}

let waiting = 0;
/** bumped by reset: a wait begun before it ends without counting down */
let generation = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export const connection = {
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /** true while some call waits for the server to come back */
  reconnecting: (): boolean => waiting > 0,
  /** a call starts waiting; the returned function ends its wait (call it once) */
  wait(): () => void {
    waiting++;
    if (waiting === 1) notify();
    let done = false;
    const begun = generation;
    return () => {
      if (done || begun !== generation) return;
      done = true;
      waiting--;
      if (waiting === 0) notify();
    };
  },
  /** tests: nobody waits (the waits begun before end without counting) */
  reset(): void {
    waiting = 0;
    generation++;
    notify();
  },
};
