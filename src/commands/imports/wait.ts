// Waiting for an import to finish: `contacts import --wait`, `imports create --wait` and
// `imports get <id> --wait` (which picks up a wait that was interrupted), all on the client's
// imports.waitUntilDone (GET one import where the server has it, else the import list); here:
// progress on a terminal once the server has counted the rows, the time-out and Ctrl-C saying
// the import keeps running and how to wait again. Nothing here uploads anything.
import type { WsmClient } from '../../api/client.js';
import { FAILED_IMPORT, importStatus } from '../../api/waits.js';
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, WaitTimedOutError } from '../../cli/errors.js';
import { untilInterrupted } from '../../cli/interrupt.js';
import { waitHeartbeat } from '../../cli/heartbeat.js';
import { waitRetries } from '../../cli/wait-retries.js';
import type { CallOptions } from '../../api/resources/base.js';
import type { RetryPolicy } from '../../api/transport.js';
import { waitTimeoutMs } from '../../cli/timeout.js';
import type { FlagOptions, IMPORT_WAIT_FLAGS } from '../declare.js';
import { parseDuration } from '../shared/verb.js';
import { countOf, countText } from '../../cli/text.js';
import { endWithFailures, parseMaxFailures, type FailureLimit } from '../shared/max-failures.js';
import { type PlannedOutcome, summaryText } from './import-tally.js';

export interface WaitFlags {
  intervalMs: number;
  timeoutMs: number;
  /** --max-failures: the failed rows a finished import may have before exit 8. */
  maxFailures?: FailureLimit;
}

/** `--interval` (default 1s), `--timeout` (default 30m) and `--max-failures` of a wait. */
export function parseWaitFlags(opts: FlagOptions<typeof IMPORT_WAIT_FLAGS>): WaitFlags {
  const flags: WaitFlags = { intervalMs: parseDuration(opts.interval ?? '1s', '--interval'), timeoutMs: waitTimeoutMs(opts.timeout) };
  const maxFailures = parseMaxFailures(opts.maxFailures);
  if (maxFailures !== undefined) flags.maxFailures = maxFailures;
  return flags;
}

/** A count the server sent, when it is one (the published API shows none of an import's fields). */
const countIn = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * What Ctrl-C says while an import runs on the server: `import 8 keeps running on the server:
 * \`wsm imports get 8 --wait\`` (the message's printer adds the target flags given, suggest.ts).
 */
function importKeepsRunning(id: number | string): string {
  return `import ${id} keeps running on the server: \`wsm imports get ${id} --wait\``;
}

/** Runs `work` (which gets the cancel signal) so that Ctrl-C ends it with importKeepsRunning, exit 130. */
export function untilImportInterrupted<T>(ctx: Context, id: number | string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return untilInterrupted(ctx, work, () => importKeepsRunning(id));
}

/**
 * Waits for import `id` until it is finished (client.imports.waitUntilDone) and returns its last
 * record, with progress on a terminal. `known` is a record already in hand (the upload's answer);
 * without one the first read is here. `signal` cancels the wait.
 */
export async function waitForImport(
  ctx: Context,
  client: WsmClient,
  id: number | string,
  flags: WaitFlags,
  signal: AbortSignal,
  known?: ContactImport,
): Promise<ContactImport> {
  // Transient failures are retried until the wait's time is up, each said (wait-retries.ts).
  const retries = waitRetries(ctx, flags.timeoutMs, `import ${id}`);
  try {
    return await waitWithRetries(ctx, client, id, flags, { signal, retry: retries.retry }, known);
  } catch (error) {
    throw retries.gaveUp(error);
  }
}

async function waitWithRetries(
  ctx: Context,
  client: WsmClient,
  id: number | string,
  flags: WaitFlags,
  call: Required<Pick<CallOptions, 'signal' | 'retry'>>,
  known?: ContactImport,
): Promise<ContactImport> {
  const { signal, retry } = call;
  const first = known ?? (await findImport(client, id, signal, retry));
  // The total is known once the server has counted the rows (0 until then, absent on some servers).
  const totalOf = (record: ContactImport) => {
    const total = countIn(record.total_rows);
    return total !== undefined && total > 0 ? total : undefined;
  };
  const heartbeat = waitHeartbeat(ctx, `import ${id}`, flags.timeoutMs);
  heartbeat.state(importProgressText(first));
  const progress = ctx.io.progress(
    `Importing ${typeof first.name === 'string' && first.name !== '' ? first.name : `import ${id}`}`,
    totalOf(first),
  );
  try {
    const onRecord = (record: ContactImport) => {
      progress.update(countIn(record.processed_rows) ?? 0, totalOf(record));
      heartbeat.state(importProgressText(record));
    };
    const { record, settled } = await client.imports.waitUntilDone(id, first, {
      intervalMs: flags.intervalMs,
      timeoutMs: flags.timeoutMs,
      signal,
      retry,
      onRecord,
    });
    if (!settled)
      throw new WaitTimedOutError(flags.timeoutMs, `import ${id} still ${importStatus(record)}: ${importKeepsRunning(id)}`, record);
    return record;
  } finally {
    progress.done();
    heartbeat.stop();
  }
}

/** `processing, 250 of 1,000 rows`: an import's status and the rows the server counted so far. */
function importProgressText(record: ContactImport): string {
  const status = importStatus(record) ?? 'no status yet';
  const done = countIn(record.processed_rows);
  const total = countIn(record.total_rows);
  if (done === undefined) return status;
  return `${status}, ${total !== undefined && total > 0 ? `${countText(done)} of ${countOf(total, 'row')}` : countOf(done, 'row')}`;
}

/** The import's current record: one the server does not have is exit 4. */
export async function findImport(
  client: WsmClient,
  id: number | string,
  signal?: AbortSignal,
  retry?: RetryPolicy,
): Promise<ContactImport> {
  const found = await client.imports.find(id, { signal, retry });
  if (found !== undefined) return found;
  throw new CliError(`no import ${id} in this workspace (\`wsm imports list\` shows the imports there are)`, ExitCode.notFound);
}
/** A finished import that failed as a whole: exit 1, and with -o json the error document holds its record. */
export const importFailed = (record: ContactImport): boolean => FAILED_IMPORT.has(importStatus(record) ?? '');

/**
 * After a wait: a failed import is exit 1 with its first reason; the counts a message (`planned`:
 * an import that ran from its plan, in the plan's categories, and a warning where the server's
 * counters disagree with them; otherwise the counters the server sent); rows the server skipped
 * exit 8 (done, but some items failed) unless --max-failures tolerates them. `notSentRows`: the
 * sheet rows of the file the CLI did not send (an .xlsx row holding an error cell), failed like the
 * server's but never among its errors, so named here.
 */
export function reportOutcome(
  ctx: Context,
  result: ContactImport,
  limit?: FailureLimit,
  notSentRows: readonly number[] = [],
  planned?: PlannedOutcome,
): void {
  if (importFailed(result)) {
    const reason = Array.isArray(result.errors) ? result.errors[0]?.message : undefined;
    throw new CliError(`import ${result.id} failed${reason ? `: ${reason}` : ''}`, ExitCode.failure, result);
  }
  // An import that ran from a plan is told in its categories; else only the counters the server sent (the published API shows none).
  const said = planned !== undefined ? summaryText(planned.summary) : serverCounts(result);
  ctx.output.message(`Import ${result.id} completed${said !== '' ? `: ${said}` : ''}.`);
  if (planned?.disagreement !== undefined) ctx.output.warn(planned.disagreement);
  const notSent = notSentRows.length;
  const failedThere = countIn(result.failed_count);
  // A server that keeps no counters (the published API) still skipped the rows the plan found invalid.
  const counterless = failedThere === undefined && planned !== undefined;
  const failed = counterless ? planned.summary.failed : (failedThere ?? 0) + notSent;
  const total = counterless
    ? planned.summary.rows
    : (countIn(result.total_rows) || (countIn(result.created_count) ?? 0) + (countIn(result.updated_count) ?? 0) + (failedThere ?? 0)) +
      notSent;
  const notSentText = notSent > 0 ? `, ${countText(notSent)} of them not sent (cells holding errors)` : '';
  const where = counterless ? 'the warnings above name them' : whereListed(result.id, failedThere, notSentRows);
  endWithFailures(
    ctx,
    limit,
    failed,
    total,
    `import ${result.id}: ${countText(failed)} of ${countOf(total, 'row')} failed${notSentText} (${where})`,
  );
}

/** `1 created, 0 updated, 1 failed`: the counters the server sent, those it sent. */
function serverCounts(result: ContactImport): string {
  return (['created', 'updated', 'failed'] as const)
    .map((kind) => [kind, result[`${kind}_count`]] as const)
    .filter(([, value]) => typeof value === 'number')
    .map(([kind, value]) => `${countText(value as number)} ${kind}`)
    .join(', ');
}

/**
 * Where the failed rows are: `wsm imports errors` lists those the server saw; the rows not sent
 * never reached it, so they are named (the first five).
 */
function whereListed(id: unknown, failedThere: number | undefined, notSentRows: readonly number[]): string {
  const listing = `\`wsm imports errors ${String(id)}\` lists`;
  if (notSentRows.length === 0) return `${listing} them`;
  const shown = [...notSentRows]
    .sort((a, b) => a - b)
    .slice(0, 5)
    .join(', ');
  const more = notSentRows.length > 5 ? ` and ${countText(notSentRows.length - 5)} more` : '';
  const notSent = `not sent: row${notSentRows.length === 1 ? '' : 's'} ${shown}${more}`;
  if (failedThere === 0) return notSent;
  return `${listing} ${failedThere === undefined ? 'those' : `the ${countText(failedThere)}`} the server refused; ${notSent}`;
}
