/**
 * The password hashing of logins, bounded (issue 25 point 1). A production hash costs 128 MiB and
 * a core for a good fraction of a second; a flood of logins, each costing one, used to take sign-in
 * down for everyone (a normal login 33 s instead of 5 s), since every request started its hash at
 * once and all of them shared the cores.
 *
 * - A fixed number of hashes run at a time (`size`, by default the cores, at most 4: libuv's pool);
 *   the others wait in a queue of bounded length, each at most `maxWaitMs`. A full queue, or a
 *   wait that reaches its deadline, answers "busy" (503 with Retry-After) at once: one flood cannot
 *   pile up work that starves real users for minutes.
 * - A user ID that does not exist costs no hash at all: its answer waits as long as a hash of a
 *   real one would now take (the measured time of recent hashes, plus the queue ahead), so the
 *   answers stay alike in time without spending a core on nobody. When the queue is full it is
 *   refused alike.
 */
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { verifyPassword } from '../engine/passwords.ts';

export interface HashPoolOptions {
  /** hashes at a time (default: the cores, 1 to 4) */
  size?: number;
  /** hashes that may wait for a slot (default 8 per slot) */
  maxQueue?: number;
  /** the longest a hash waits for a slot before the login is answered "busy" (default 10 s) */
  maxWaitMs?: number;
}

/** The login could not be checked now: answer 503 with Retry-After. */
export class HashPoolBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('password checks are busy');
  }
}

interface Waiter {
  start: () => void;
  fail: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export interface HashPoolStats {
  /** hashes run */
  hashes: number;
  /** unknown user IDs answered after a wait instead of a hash */
  imitated: number;
  /** logins answered busy (full queue or deadline) */
  refused: number;
  /** the most hashes that ran at once */
  peakRunning: number;
}

export class HashPool {
  readonly size: number;
  readonly maxQueue: number;
  readonly maxWaitMs: number;
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** the measured duration of one hash (moving average); null until the first one */
  private hashMs: number | null = null;
  readonly stats: HashPoolStats = { hashes: 0, imitated: 0, refused: 0, peakRunning: 0 };

  constructor(opts: HashPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? Math.min(4, availableParallelism()));
    this.maxQueue = Math.max(0, opts.maxQueue ?? this.size * 8);
    this.maxWaitMs = opts.maxWaitMs ?? 10_000;
  }

  /** The seconds a refused caller is told to wait: about the time the queue ahead takes to drain. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(((this.hashMs ?? 500) * (this.queue.length / this.size + 1)) / 1000));
  }

  private busy(): HashPoolBusy {
    this.stats.refused++;
    return new HashPoolBusy(this.retryAfterSeconds());
  }

  /** Runs `hash` when a slot is free; throws HashPoolBusy when the queue is full or the wait reaches maxWaitMs. */
  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.queue.length >= this.maxQueue) throw this.busy();
      await new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          start: resolve,
          fail: reject,
          timer: setTimeout(() => {
            const i = this.queue.indexOf(w);
            if (i >= 0) this.queue.splice(i, 1);
            reject(this.busy());
          }, this.maxWaitMs),
        };
        w.timer.unref();
        this.queue.push(w);
      });
    } else this.running++;
    // the slot is ours (taken above, or handed over by the one before: see release)
    this.stats.peakRunning = Math.max(this.stats.peakRunning, this.running);
    const started = performance.now();
    try {
      return await hash();
    } finally {
      this.measure(performance.now() - started);
      this.stats.hashes++;
      this.release();
    }
  }

  /** A slot is handed to the next waiter, or freed. */
  private release(): void {
    const next = this.queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start();
    } else this.running--;
  }

  private measure(ms: number): void {
    this.hashMs = this.hashMs === null ? ms : this.hashMs * 0.8 + ms * 0.2;
  }

  /**
   * For a user ID that does not exist: waits as long as a hash would take now (the queue ahead
   * included), without hashing; refused like a hash when the queue is full. `calibrate` makes one
   * hash when none has been measured yet (once per process), so the first answer is alike too.
   */
  async imitate(calibrate: () => Promise<unknown>): Promise<void> {
    if (this.hashMs === null) {
      await this.run(calibrate);
      this.stats.hashes--;
      this.stats.imitated++;
      return;
    }
    if (this.running >= this.size && this.queue.length >= this.maxQueue) throw this.busy();
    const queued = this.running >= this.size ? this.queue.length + 1 : 0;
    const wait = Math.min(this.maxWaitMs, (this.hashMs * queued) / this.size) + this.hashMs;
    this.stats.imitated++;
    await sleep(wait);
  }
}

/**
 * The login's password check through the pool: true or false, or "busy" when the pool refused.
 * No stored hash (the user ID does not exist): false after the wait a hash would take.
 */
export async function passwordCheck(pool: HashPool, password: string, hash: string | null): Promise<boolean | 'busy'> {
  try {
    if (!hash) {
      await pool.imitate(() => verifyPassword(password, null));
      return false;
    }
    return await pool.run(() => verifyPassword(password, hash));
  } catch (err) {
    if (err instanceof HashPoolBusy) return 'busy';
    throw err;
  }
}
