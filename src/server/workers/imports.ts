/**
 * Background processing of contact imports (decisions.md §3). A run streams
 * the stored CSV and commits rows in batches; each batch's contacts and the
 * import's counters (processed_rows above all) go in one transaction. So after
 * a crash, skipping `processed_rows` rows resumes exactly where the last
 * committed batch ended, with nothing counted or created twice.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { isBusyError, isFullError, type Db } from '../db.js';
import type { Repositories } from '../repositories/index.js';
import { check, importRow } from '../../api/schemas/index.js';
import { noteError, progressOf, type ImportProgress, type ImportRow, type ImportsRepository } from '../repositories/imports.js';
import { countDataRows, formatNotes, openCsv, type CsvItem } from '../../api/import-csv.js';
import { CsvEncodingError } from '../../formats/csv/encoding.js';
import { fieldValuesOf, planColumns, readRow, type ColumnPlan } from '../../api/import-columns.js';
import { createGroupResolver } from '../imports/groups.js';
import { createImportWriter } from '../imports/writer.js';

/**
 * Rows per transaction. Since the search index merges 16 segments at a time (migration 003),
 * 1,000 to 5,000 rows import at the same speed (1M rows: 29-33 s either way; 500 is ~15%
 * slower). The rows of a batch are held until its commit and outlive young-generation GC, so
 * smaller batches keep the server's peak RSS lower (1M rows: 5,000 -> 219-225 MB, 2,000 -> 191-194 MB)
 * and block the event loop for less time per commit.
 */
const IMPORT_BATCH_ROWS = 2000;
/** How often the worker looks for work it was not told about (creates kick it), and retries an import the database was too busy for. */
const POLL_MS = 2000;
/** `row` of an error about the whole file rather than one of its rows. */
const WHOLE_FILE = 0;
const FILE_GONE = 'The uploaded file is no longer available.';

/** Why a run stopped, in words a user can act on (never a stack, a path or SQL). */
function stoppedBecause(error: unknown): string {
  if (error instanceof CsvEncodingError) return `The import stopped: the file is no longer text it can read: ${error.message}.`;
  const { code, syscall, name } = (error ?? {}) as { code?: unknown; syscall?: unknown; name?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return `The import stopped: the database refused the write (${code}).`;
  if (typeof syscall === 'string') return `The import stopped: the uploaded file could not be read (${String(code ?? syscall)}).`;
  return `The import stopped because of an unexpected error (${typeof name === 'string' ? name : 'unknown'}).`;
}

export interface ProcessOptions {
  /** Rows per transaction. */
  batchSize?: number;
  /** Who claims the import (a fresh id per run unless given). */
  workerId?: string;
  /** Checked after each committed batch: true leaves the import `processing`, to resume later. */
  shouldStop?: () => boolean;
}
/** `busy`: the database was locked (or the disk full) for now; the import is left as it was, for a later run. */
export type ProcessOutcome = 'completed' | 'failed' | 'stopped' | 'deleted' | 'skipped' | 'busy';

/** What a run works with: the app's database and its one set of repositories (app.ts). */
export type ImportContext = { db: Db; repositories: Pick<Repositories, 'imports' | 'fields' | 'groups'> };

/** The claim is gone (the import was deleted, or another worker holds it): the batch in flight is rolled back. */
class ClaimLost extends Error {}

const reasonOf = (errors: Record<string, string[]>) => Object.values(errors).flat().join(' ');

/**
 * Runs one import under a claim, so that no other worker runs it at the same time (a second
 * connection or process): 'skipped' when it is finished or someone else's.
 */
export async function processImport(app: ImportContext, importId: number, options: ProcessOptions = {}): Promise<ProcessOutcome> {
  const { imports } = app.repositories;
  const worker = options.workerId ?? randomUUID();
  let claimed = false;
  try {
    claimed = imports.claim(importId, worker);
    if (!claimed) return 'skipped';
    return await processClaimed(app, importId, worker, options);
  } catch (error) {
    if (isBusyError(error) || isFullError(error)) return 'busy';
    if (error instanceof ClaimLost) return imports.job(importId) ? 'skipped' : 'deleted';
    throw error;
  } finally {
    if (claimed) releaseQuietly(imports, importId, worker);
  }
}

/** A claim left behind (the database still busy) is voided at the next start, or taken back by the same worker. */
function releaseQuietly(imports: ImportsRepository, importId: number, worker: string): void {
  try {
    imports.release(importId, worker);
  } catch (error) {
    if (!isBusyError(error)) throw error;
  }
}

async function processClaimed(app: ImportContext, importId: number, worker: string, options: ProcessOptions): Promise<ProcessOutcome> {
  const { imports } = app.repositories;
  const job = imports.job(importId)!;
  const failWith = (progress: ImportProgress, message: string, row = WHOLE_FILE): ProcessOutcome => {
    noteError(progress, { row, line: row, message, failed: false });
    imports.finish(importId, worker, 'failed', progress);
    return 'failed';
  };
  if (!existsSync(job.stored_path)) return failWith(progressOf(job), FILE_GONE);
  try {
    // The total was counted with the upload's check (routes/imports.ts); an import stored without
    // it (a file of no rows, or one uploaded by an older wsm) is counted before its first row.
    if (job.processed_rows === 0) {
      const total = job.total_rows > 0 ? job.total_rows : await countDataRows(job.stored_path);
      if (!imports.begin(importId, worker, total)) throw new ClaimLost();
    }
    return await runRows(app, job, worker, options);
  } catch (error) {
    // A passing state (busy, full) is not the import's fault: it resumes from what was committed.
    if (error instanceof ClaimLost || isBusyError(error) || isFullError(error)) throw error;
    // Keep what was committed; the in-memory counters may hold a rolled-back batch.
    const committed = imports.job(importId);
    if (!committed) throw new ClaimLost();
    return failWith(progressOf(committed), existsSync(job.stored_path) ? stoppedBecause(error) : FILE_GONE);
  }
}

async function runRows(app: ImportContext, job: ImportRow, worker: string, options: ProcessOptions): Promise<ProcessOutcome> {
  const { db, repositories } = app;
  const { imports } = repositories;
  const writer = createImportWriter(db);
  const groups = createGroupResolver(repositories.groups, job.workspace_id, job.may_create_groups === 1);
  const fieldIds = repositories.fields.idsByName(job.workspace_id);
  const batchSize = options.batchSize ?? IMPORT_BATCH_ROWS;
  const progress = progressOf(job);
  let plan: ColumnPlan | undefined;
  let alreadyDone = job.processed_rows;
  let batch: CsvItem[] = [];

  const apply = (item: CsvItem, columns: ColumnPlan) => {
    if (item.kind === 'error') {
      progress.failed_count += 1;
      noteError(progress, { row: item.row, line: item.line, message: item.message, failed: true });
      return;
    }
    const parsed = check(importRow, readRow(item.cells, columns));
    if (!parsed.ok) {
      progress.failed_count += 1;
      noteError(progress, { row: item.row, line: item.line, message: reasonOf(parsed.errors), failed: true });
      return;
    }
    const groupIds = job.contact_group_id === null ? [] : [job.contact_group_id];
    if (parsed.value.contact_groups !== undefined && parsed.value.contact_groups.length > 0) {
      const named = groups.resolve(parsed.value.contact_groups);
      if (!named.ok) {
        progress.failed_count += 1;
        noteError(progress, { row: item.row, line: item.line, message: named.message, failed: true });
        return;
      }
      // Said once, at the row that needed it: a restore into a new workspace shows what it made.
      for (const group of named.created)
        noteError(progress, {
          row: item.row,
          line: item.line,
          message: `The contact group "${group.name}" did not exist and was created (id ${group.id}).`,
          failed: false,
        });
      groupIds.push(...named.ids);
    }
    const outcome = writer.write(job.workspace_id, parsed.value, fieldValuesOf(parsed.value.fields, columns), groupIds);
    if (outcome === 'created') progress.created_count += 1;
    else progress.updated_count += 1;
  };
  const commit = db.transaction((items: CsvItem[], columns: ColumnPlan) => {
    writer.beginBatch();
    groups.forget();
    for (const item of items) apply(item, columns);
    writer.endBatch();
    progress.processed_rows += items.length;
    if (!imports.saveProgress(job.id, worker, progress)) throw new ClaimLost();
  });

  const csv = await openCsv(job.stored_path);
  try {
    for await (const items of csv.batches) {
      for (const item of items) {
        if (!plan) {
          if (item.kind === 'error') return failOnHeader(imports, job.id, worker, progress, item.message);
          plan = planColumns(item.cells, fieldIds);
          if (plan.contact.number === undefined)
            return failOnHeader(imports, job.id, worker, progress, 'The header row has no number column.');
          // Noted once: a resumed run finds these already committed with its first batch.
          if (progress.processed_rows === 0)
            for (const message of [...formatNotes(csv.format), ...plan.notes])
              noteError(progress, { row: 1, line: 1, message, failed: false });
          continue;
        }
        if (alreadyDone > 0) {
          alreadyDone -= 1;
          continue;
        }
        batch.push(item);
        if (batch.length < batchSize) continue;
        commit(batch, plan);
        batch = [];
        if (options.shouldStop?.()) return 'stopped';
        await nextTurn(); // let requests in between batches
      }
    }
  } finally {
    await csv.close();
  }
  if (!plan) return failOnHeader(imports, job.id, worker, progress, 'The file has no header row.');
  const columns = plan;
  db.transaction(() => {
    commit(batch, columns);
    imports.finish(job.id, worker, 'completed', progress);
  })();
  return 'completed';
}

function failOnHeader(imports: ImportsRepository, id: number, worker: string, progress: ImportProgress, message: string): ProcessOutcome {
  noteError(progress, { row: 1, line: 1, message, failed: false });
  imports.finish(id, worker, 'failed', progress);
  return 'failed';
}

/** Runs every pending import, and every one a stop or crash left `processing`, oldest first. */
export async function runPendingImports(app: ImportContext, options: ProcessOptions = {}): Promise<number> {
  let runs = 0;
  for (const id of app.repositories.imports.unfinishedIds()) {
    if (options.shouldStop?.()) break;
    await processImport(app, id, options);
    runs += 1;
  }
  return runs;
}

/**
 * Starts the worker with the app (when workers are enabled) and stops it on
 * close, after the batch in flight; `kick()` asks for a run now (after a create).
 */
export function registerImportWorker(app: FastifyInstance): { kick(): void } {
  if (!app.workersEnabled) return { kick: () => {} };
  let stopping = false;
  // One id for the worker's life: a claim it could not release (the database busy) is its own again.
  const workerId = randomUUID();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const kick = () => {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    // A database file deleted under the server: its rows would go nowhere (http/database-file.ts).
    running = runPendingImports(app, { workerId, shouldStop: () => stopping || app.databaseFile.lost() })
      .then(() => undefined)
      .catch((error: unknown) => app.log.error({ err: error }, 'import worker failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
        // The search index catches up once the imports are done (workers/search-index.ts).
        if (!running) app.searchIndexWorker.kick();
      });
  };

  app.addHook('onReady', async () => {
    timer = setInterval(kick, POLL_MS);
    timer.unref();
    kick(); // imports a previous process left pending or processing
  });
  app.addHook('onClose', async () => {
    stopping = true;
    clearInterval(timer);
    await running;
  });
  return { kick };
}
