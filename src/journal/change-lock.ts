// A change being written holds a lock, so that `wsm undo` in another terminal does not take back a
// change whose records are still coming. The lock is `<id>.lock` beside the change's files: a small
// SQLite file held in EXCLUSIVE locking mode from the change's beginning to its end, as `wsm serve`
// holds its database's (src/server/lock.ts). It is the operating system's file lock, so it goes with
// the process however that ends, SIGKILL included: a writer that died never holds it, and no stale
// lock is left for anyone to break. The file itself may stay behind (a killed writer's); it is
// removed with its change.
//
// better-sqlite3 is loaded only here and only when a lock is taken or tested: a change being begun,
// or a change not ended being undone or shown, never `wsm --help` or `wsm history`.
import { closeSync, lstatSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

const openDatabase = (path: string, options: BetterSqlite3.Options): Database => {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return new Database(path, options);
};

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: string }).code ?? '');

export interface ChangeLock {
  /** The change ended: the lock let go and its file removed. */
  release(): void;
}

/** Takes the lock of a change this process has just claimed the id of (so no other wsm holds it). */
export function holdChangeLock(path: string, mode: number): ChangeLock {
  rmSync(path, { force: true }); // a killed writer's leftover of an id reused; a planted link is removed, never followed
  closeSync(openSync(path, 'wx', mode)); // owner-only, like the change's other files
  // timeout 0: the id is this process's, so a held lock could only be a planted file's: an answer, not a wait.
  const db = openDatabase(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // The first write takes the exclusive lock, and EXCLUSIVE mode never gives it back until closed.
    db.exec('CREATE TABLE IF NOT EXISTS writer (pid INTEGER)');
  } catch (error) {
    db.close();
    rmSync(path, { force: true });
    throw error;
  }
  return {
    release() {
      db.close();
      rmSync(path, { force: true });
    },
  };
}

/**
 * Whether a live process holds the lock at `path`. No file, or anything but a regular file (a
 * planted link or pipe, never opened), or a file whose lock is free: no one is writing the change.
 * Tested through SQLite alone: closing any other descriptor of the file would drop a lock this same
 * process holds on it (POSIX locks are per process), so the file is never opened here otherwise.
 */
export function changeLockHeld(path: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
  } catch {
    return false;
  }
  let db: Database;
  try {
    db = openDatabase(path, { readonly: true, fileMustExist: true, timeout: 0 });
  } catch (error) {
    return isBusy(error);
  }
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    return isBusy(error);
  } finally {
    db.close();
  }
}
