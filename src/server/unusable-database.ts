/**
 * A database file `wsm serve` cannot use, said in one line: the file, what was found there, and
 * what to do (restore it, or start on another file with --db), never SQLite's words alone
 * ("database disk image is malformed" names neither the file nor a way out).
 */
import { openSync, readSync, closeSync } from 'node:fs';

const RESTORE = 'restore it from a backup, or pass --db another path to start a new database';

class UnusableDatabaseError extends Error {
  override name = 'UnusableDatabaseError';
  constructor(
    readonly file: string,
    found: string,
    remedy: string = RESTORE,
  ) {
    super(`${file} ${found}: ${remedy}`);
  }
}

const sqliteCode = (error: unknown) => String((error as { code?: unknown })?.code ?? '');

/** The first bytes of a file, as text a terminal shows safely: what was found instead of a database. */
function firstBytes(file: string): string {
  const buffer = Buffer.alloc(24);
  let read = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
  const text = buffer
    .subarray(0, read)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.');
  return read === 0 ? '' : ` (it starts with "${text}")`;
}

/** The error SQLite (or the file system) gave on opening `file`, as an UnusableDatabaseError when it is one. */
export function asUnusable(file: string, error: unknown): unknown {
  const code = sqliteCode(error);
  if (code === 'SQLITE_NOTADB') return new UnusableDatabaseError(file, `is not a SQLite database${firstBytes(file)}`);
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new UnusableDatabaseError(file, `is a damaged SQLite database (SQLite reports: ${(error as Error).message})`);
  }
  if (code === 'EISDIR') return new UnusableDatabaseError(file, 'is a directory', 'pass --db the path of a database file');
  return error;
}

/** A file SQLite opens but that is not ours: another application's tables, or a schema from a newer wsm. */
export function assertOurs(file: string, version: number, latest: number, tables: string[]): void {
  if (version > latest) {
    throw new UnusableDatabaseError(
      file,
      `was written by a newer wsm (schema version ${version}; this wsm knows up to ${latest})`,
      'upgrade wsm, or pass --db another path',
    );
  }
  if (version === 0 && tables.length > 0) {
    const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
    throw new UnusableDatabaseError(
      file,
      `is a SQLite database of another application (tables ${named}), left as it is`,
      'pass --db the path of a wsm database, or of a new file',
    );
  }
}
