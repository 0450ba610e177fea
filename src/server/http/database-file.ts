/**
 * Notices the database file being deleted or replaced under the server (`rm wsm.db*`, a restore
 * copied over it). SQLite keeps writing into the file it has open, which no longer has a name:
 * every write would be acknowledged and gone at the next start. So writes are refused with a
 * 503 naming the cause, and the operator is told once; reads still answer from what is open.
 * The check is one stat() per write request: the same device and inode as at start-up.
 */
import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db.js';
import { HttpError } from './errors.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const databaseGone = () =>
  new HttpError(503, {
    message: 'The database file was deleted or replaced while the server was running: nothing can be saved until the server is restarted.',
    status: 503,
  });

interface DatabaseFileWatch {
  /** True once the file the database was opened from is gone or another file. */
  lost(): boolean;
  /** SQLite met damage in the file while serving: the operator is told once, naming the file and what to do. */
  damaged(): void;
}

function watchDatabaseFile(db: Db, warn: (message: string) => void): DatabaseFileWatch {
  let warnedDamage = false;
  const damaged = () => {
    if (warnedDamage) return;
    warnedDamage = true;
    warn(
      `the database file ${db.name} is damaged (SQLite found a malformed page): stop the server and restore the file from a backup, or start on another --db`,
    );
  };
  if (db.memory) return { lost: () => false, damaged };
  const path = db.name;
  const identity = (): string | undefined => {
    try {
      const stat = statSync(path);
      return `${stat.dev}:${stat.ino}`;
    } catch {
      return undefined;
    }
  };
  const opened = identity();
  let lost = false;
  return {
    damaged,
    lost() {
      if (lost) return true;
      if (identity() === opened) return false;
      lost = true;
      warn(`the database file ${path} was deleted or replaced: writes are refused until the server is restarted`);
      return true;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    databaseFile: DatabaseFileWatch;
  }
}

async function guardPlugin(app: FastifyInstance, options: { onWarning: (message: string) => void }) {
  app.decorate('databaseFile', watchDatabaseFile(app.db, options.onWarning));
  app.addHook('onRequest', (request, _reply, done) => {
    done(!READS.has(request.method) && app.databaseFile.lost() ? databaseGone() : undefined);
  });
}

export const databaseFileGuard = fp(guardPlugin, { name: 'wsm-database-file' });
