/**
 * Keeps the search index caught up behind imports (migration 011): one slice of contacts per
 * transaction, with a turn of the event loop between slices so that requests get in. It holds
 * back while an import is pending or running, so that the import does not share its time with
 * the index; the import worker kicks it when its run ends. It also looks for work on an interval
 * (another process's import, a restart with rows left unindexed).
 * Search is exact whether or not it has caught up (repositories/contact-search.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { isBusyError, isFullError } from '../db.js';

const POLL_MS = 2000;

interface SearchIndexWorker {
  /** Index what waits, now (after an import). */
  kick(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    searchIndexWorker: SearchIndexWorker;
  }
}

export function registerSearchIndexWorker(app: FastifyInstance): void {
  if (!app.workersEnabled) {
    app.decorate('searchIndexWorker', { kick: () => {} });
    return;
  }
  const { imports, searchIndex: index } = app.repositories;
  let stopping = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const mayRun = () => !stopping && !app.databaseFile.lost() && !imports.hasUnfinished();

  async function run(): Promise<void> {
    try {
      while (mayRun() && index.indexSlice()) await nextTurn();
    } catch (error) {
      // Locked by another connection, or the disk full: the next look tries again.
      if (!isBusyError(error) && !isFullError(error)) throw error;
    }
  }

  // A kick while a run ends (an import finished meanwhile, say) runs again after it.
  let again = false;
  const kick = () => {
    if (!mayRun()) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) => app.log.error({ err: error }, 'search index worker failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };

  app.decorate('searchIndexWorker', { kick });
  app.addHook('onReady', async () => {
    timer = setInterval(kick, POLL_MS);
    timer.unref();
    kick();
  });
  app.addHook('onClose', async () => {
    stopping = true;
    clearInterval(timer);
    await running;
  });
}
