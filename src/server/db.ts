import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations/index.js';
import { asUnusable, assertOurs } from './unusable-database.js';

export type Db = Database.Database;

/**
 * How long a statement waits for another connection's lock. better-sqlite3 waits synchronously,
 * so the whole server waits with it: kept short, after which a request answers 503 with
 * Retry-After and the import worker tries again later (http/errors.ts, workers/imports.ts).
 */
const BUSY_TIMEOUT_MS = 200;

/**
 * Re-planned statements. This SQLite (3.54, in better-sqlite3 13) re-prepares a statement at its
 * next run whenever a new value is bound to a parameter its plan might depend on: a `?` compared
 * with an indexed TEXT column in a join or beside an ORDER BY, a `LIMIT ?` / `OFFSET ?`. Every
 * binding is new (better-sqlite3 binds each call), so such a statement is compiled again on every
 * call, and better-sqlite3 then builds its row function again (`new Function`): 20-90 µs a call
 * instead of 1-2 µs (measured on the statements of a list request). On the statements
 * run per request or per row, the parameter is written `+?` (a TEXT comparison: unary plus leaves
 * the value and the column's affinity as they are) or `?+0` (an integer LIMIT/OFFSET), which SQLite
 * does not look into, so the statement keeps its one plan.
 */

/** Another connection holds the lock (SQLITE_BUSY, SQLITE_LOCKED and their extended codes). */
export const isBusyError = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown })?.code ?? ''));
/** The disk (or the database's size limit) is full. */
export const isFullError = (error: unknown) => ['SQLITE_FULL', 'ENOSPC'].includes(String((error as { code?: unknown })?.code ?? ''));

/**
 * Opens (or creates) the database, in WAL mode, and brings its schema up to
 * date. Each migration runs in its own transaction with its version bump, so
 * a crash never leaves a half-applied schema. A file that is no usable wsm
 * database (not SQLite, damaged, another application's, a newer wsm's) is an
 * UnusableDatabaseError naming the file and what to do, and is left untouched.
 */
export function openDatabase(file: string): Db {
  let db: Db | undefined;
  try {
    if (file !== ':memory:') createOwnerOnly(file);
    db = new Database(file);
    // Read before anything is written, so that a file that is not ours stays as it was.
    assertOurs(file, db.pragma('user_version', { simple: true }) as number, migrations.at(-1)!.version, tablesOf(db));
    if (file !== ':memory:') tightenModes(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw asUnusable(file, error);
  }
}

/** The tables of a database, SQLite's own aside. */
const tablesOf = (db: Db) =>
  db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .pluck()
    .all();

/**
 * The database holds password hashes, token hashes and every contact: owner-only. SQLite gives
 * the WAL and shared-memory files the mode of the database file, so creating that one 0600
 * covers all three; a file found looser (an older wsm, a copy) is tightened (tightenModes).
 */
function createOwnerOnly(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
}

function tightenModes(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch {
      // Not there (yet), or not ours to change: SQLite reports what matters when it opens it.
    }
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const apply = db.transaction(() => {
      if (migration.sql) db.exec(migration.sql);
      migration.run?.(db);
      if (migration.foreignKeysOff) {
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`migration ${migration.version} would break ${broken.length} foreign keys`);
      }
      db.pragma(`user_version = ${migration.version}`);
    });
    if (!migration.foreignKeysOff) {
      apply();
      continue;
    }
    // A table rebuild drops the old table: with foreign keys on, that would cascade to every row
    // pointing at it. The pragma is a no-op inside a transaction, so it is set around it.
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    db.pragma('foreign_keys = OFF');
    try {
      apply();
    } finally {
      db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    }
  }
}

/** ISO 8601 in UTC with Z (decisions.md §1). */
export const nowIso = (): string => new Date().toISOString();
