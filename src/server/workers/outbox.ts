/**
 * Drains provider_outbox: deletions the template provider still owes us
 * (decisions.md §5). It runs beside the API on a timer and never holds up a
 * request: a failing provider only pushes each row's next attempt further out.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db.js';
import type { TemplateProvider } from '../provider/provider.js';
import { createOutboxRepository, type OutboxRepository } from '../repositories/outbox.js';

export interface OutboxDeps {
  db: Db;
  provider: TemplateProvider;
}

const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 5 * 60 * 1000;
/** Rows handled per drain, so one drain stays short however long the backlog. */
const BATCH = 50;
/** A provider call that hangs counts as a failure instead of stalling the outbox. */
const CALL_TIMEOUT_MS = 30_000;
const POLL_MS = 1000;

/**
 * Delay before attempt `attempts + 1`: 1 s, 2 s, 4 s, ... capped at 5 min, with
 * ±20 % jitter so that rows failing together do not retry together.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.min(BACKOFF_CAP_MS, Math.round(base * (0.8 + 0.4 * random())));
}

// Prepared statements are made once per database, however often drainOutbox is called.
const repositories = new WeakMap<Db, OutboxRepository>();
function outboxOf(db: Db): OutboxRepository {
  let repository = repositories.get(db);
  if (!repository) repositories.set(db, (repository = createOutboxRepository(db)));
  return repository;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('template provider timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Processes every row due at `now` (epoch ms); accepts the app itself as deps. */
export async function drainOutbox(deps: OutboxDeps, now: number = Date.now()): Promise<{ done: number; failed: number }> {
  const outbox = outboxOf(deps.db);
  let done = 0;
  let failed = 0;
  for (const row of outbox.due(new Date(now).toISOString(), BATCH)) {
    try {
      await withTimeout(deps.provider.delete(row.workspace_id, row.provider_id), CALL_TIMEOUT_MS);
      outbox.done(row.id);
      done += 1;
    } catch (error) {
      const attempts = row.attempts + 1;
      const next = new Date(now + backoffMs(attempts)).toISOString();
      // Only the message is kept: it names the cause without a stack or internals.
      outbox.retryLater(row.id, attempts, next, error instanceof Error ? error.message : String(error));
      failed += 1;
    }
  }
  return { done, failed };
}

/**
 * Starts the drain loop when the app is ready (if workers are enabled) and
 * stops it on close. Drains never overlap; the timer does not keep the
 * process alive.
 */
export function registerOutboxWorker(app: FastifyInstance): void {
  if (!app.workersEnabled) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = drainOutbox(app)
      .catch((error: unknown) => app.log.error({ err: error }, 'outbox drain failed'))
      .finally(() => (running = undefined));
  };
  app.addHook('onReady', async () => {
    // A restart is a fresh chance: the provider may be back (a fault fixed, new credentials),
    // so a deletion backed off for minutes before the restart is tried at once after it.
    outboxOf(app.db).allDueNow();
    timer = setInterval(tick, POLL_MS);
    timer.unref();
    tick();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
