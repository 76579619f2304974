/**
 * Opening a SQLite connection to the catalog file, for the thread that writes and for the main
 * thread's reads: the one place that knows the pragmas.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type ConnectionRole = 'writer' | 'reader';

export function openSqliteConnection(path: string, role: ConnectionRole): Database.Database {
  if (role === 'writer' && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  try {
    if (role === 'writer') {
      database.pragma('journal_mode = WAL');
      // FULL, not NORMAL: a segment commit is followed by truncating the write-ahead log, so a
      // commit lost to a power cut after that would lose acknowledged documents
      database.pragma('synchronous = FULL');
      database.pragma('foreign_keys = ON');
    } else {
      // a reader that a bug sends a write to fails rather than writing without the writer's lock
      database.pragma('query_only = ON');
    }
    database.pragma('busy_timeout = 5000');
  } catch (err) {
    database.close();
    throw err;
  }
  return database;
}
