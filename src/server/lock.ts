/**
 * One server per database file (decisions.md §7). Two servers on one file both ran the import
 * and outbox workers and lost rows; SQLite's own locks only cover one transaction at a time.
 *
 * The lock is a small SQLite file beside the database, `<db>.lock`, held in EXCLUSIVE locking
 * mode by a write for the server's whole life: the operating system's file lock, which goes
 * with the process however it ends (SIGKILL included), so no stale lock is ever left to clean
 * up. SQLite keeps these locks straight between connections of one process too. The file
 * itself stays (deleting it could let two servers lock two different files of one name).
 */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** The database file is in use by another server (one clear line for the CLI: exit 1). */
class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
  constructor(readonly file: string) {
    super(`another wsm serve is using ${file}: stop it first, or pass another --db`);
  }
}

export interface DatabaseLock {
  release(): void;
}

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: string }).code ?? '');

export function lockDatabaseFile(dbFile: string): DatabaseLock {
  const path = `${dbFile}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  closeSync(openSync(path, 'a', 0o600)); // created owner-only, like the database
  // timeout 0: a lock held elsewhere is an answer, not something to wait for.
  const lock = new Database(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = OFF');
    // The first write takes the exclusive lock, and EXCLUSIVE mode never gives it back.
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
    lock.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  } catch (error) {
    lock.close();
    if (isBusy(error)) throw new DatabaseInUseError(dbFile);
    throw error;
  }
  return { release: () => lock.close() };
}
