/**
 * Opens the SQLite file. WAL lets readers run beside the one writer; synchronous=FULL because a
 * confirmed shipment or settlement must survive a power cut, not only a process crash
 * (better-sqlite3 defaults WAL databases to NORMAL).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type DB = Database.Database;

export function openDatabase(file: string): DB {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
