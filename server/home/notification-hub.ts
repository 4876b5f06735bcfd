/**
 * Tells this process's open notification streams that a new event exists, whichever process
 * wrote it (server/home/notifications.ts explains the two ways). Runs only while a stream is open.
 */
import type pg from 'pg';
import type { Db } from '../db/types.ts';
import { CHANNEL } from './notifications.ts';

type Listener = (latestId: number) => void;

export class NotificationHub {
  private readonly listeners = new Set<Listener>();
  private latest = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private pgClient: pg.PoolClient | null = null;
  private starting: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    /** SQLite: how often the newest event id is read while streams are open */
    private readonly pollMs = 1000,
  ) {}

  /** Adds a listener; answers the function that removes it. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    this.starting ??= this.start().catch(() => {
      this.starting = null;
    });
    return () => {
      this.listeners.delete(fn);
      if (!this.listeners.size) void this.stop();
    };
  }

  private async newest(): Promise<number> {
    return Number((await this.db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM _notifications'))?.id ?? 0);
  }

  private async start(): Promise<void> {
    this.latest = await this.newest();
    const pool = (this.db as { pool?: pg.Pool }).pool;
    if (this.db.dialect.name === 'postgres' && pool) {
      const client = await pool.connect();
      client.on('notification', () => void this.check());
      await client.query(`LISTEN ${CHANNEL}`);
      this.pgClient = client;
    } else {
      this.timer = setInterval(() => void this.check(), this.pollMs);
      this.timer.unref();
    }
  }

  private async check(): Promise<void> {
    let id: number;
    try {
      id = await this.newest();
    } catch {
      return; // the database is closing or away: the next check or the page's reconnect catches up
    }
    if (id <= this.latest) return;
    this.latest = id;
    for (const fn of this.listeners) fn(id);
  }

  async stop(): Promise<void> {
    await this.starting;
    if (this.listeners.size) return; // a stream opened again meanwhile
    this.starting = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.pgClient;
    this.pgClient = null;
    if (client) {
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      client.release();
    }
  }
}
