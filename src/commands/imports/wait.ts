// Waiting for an import to finish: `contacts import --wait`, `imports create --wait` and
// `imports get <id> --wait` (which picks up a wait that was interrupted). One loop for all:
// polls GET one import where the server has it, else the import list (api.md's own operation,
// client.imports.find); progress on a terminal once the server has counted the rows; Ctrl-C says
// the import keeps running and how to wait again (exit 130). Nothing here uploads anything.
import type { WsmClient } from '../../api/client.js';
import { UnusableResponseError } from '../../api/errors.js';
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import { sleep, untilInterrupted } from '../../cli/interrupt.js';
import { parseDuration } from '../shared/verb.js';
import { countText } from '../../cli/text.js';
import { endWithFailures, parseMaxFailures, type FailureLimit } from '../shared/max-failures.js';

export interface WaitFlags {
  intervalMs: number;
  timeoutMs: number;
  /** --max-failures: the failed rows a finished import may have before exit 8. */
  maxFailures?: FailureLimit;
}

/** `--interval` (default 1s), `--timeout` (default 30m) and `--max-failures` of a wait. */
export function parseWaitFlags(opts: Record<string, unknown>): WaitFlags {
  const flags: WaitFlags = { intervalMs: parseDuration(opts.interval ?? '1s', '--interval'), timeoutMs: parseDuration(opts.timeout ?? '30m', '--timeout') };
  const maxFailures = parseMaxFailures(opts.maxFailures);
  if (maxFailures !== undefined) flags.maxFailures = maxFailures;
  return flags;
}

// api.md does not show how an import progresses: these are the words servers use for "done".
const FAILED = new Set(['failed', 'error', 'errored']);
const FINISHED = new Set(['completed', 'complete', 'finished', 'done', 'succeeded', 'success', 'processed', ...FAILED]);

function statusOf(record: ContactImport): string | undefined {
  const status = record.status as unknown;
  return typeof status === 'string' ? status.toLowerCase() : undefined;
}

/** A count the server sent, when it is one (api.md shows none of an import's fields). */
const countIn = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * What Ctrl-C says while an import runs on the server: `import 8 keeps running on the server:
 * \`wsm imports get 8 --wait\`` (the message's printer adds the target flags given, suggest.ts).
 */
export function importKeepsRunning(id: number | string): string {
  return `import ${id} keeps running on the server: \`wsm imports get ${id} --wait\``;
}

/** Runs `work` (which gets the cancel signal) so that Ctrl-C ends it with importKeepsRunning, exit 130. */
export function untilImportInterrupted<T>(ctx: Context, id: number | string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return untilInterrupted(work, () => importKeepsRunning(id), ctx.interrupts);
}

/**
 * Polls import `id` until it is finished and returns its last record. `known` is a record already
 * in hand (the upload's answer); without one the first poll reads it. `signal` cancels the wait.
 */
export async function waitForImport(ctx: Context, client: WsmClient, id: number | string, flags: WaitFlags, signal: AbortSignal, known?: ContactImport): Promise<ContactImport> {
  const deadline = Date.now() + flags.timeoutMs;
  let current = known ?? (await findImport(client, id, signal));
  // The total is known once the server has counted the rows (0 until then, absent on some servers).
  const totalOf = (record: ContactImport) => {
    const total = countIn(record.total_rows);
    return total !== undefined && total > 0 ? total : undefined;
  };
  const progress = ctx.io.progress(`Importing ${typeof current.name === 'string' && current.name !== '' ? current.name : `import ${id}`}`, totalOf(current));
  try {
    for (;;) {
      const status = statusOf(current);
      if (status === undefined) {
        throw new UnusableResponseError(
          `the server's record of import ${id} has no \`status\` field, so wsm cannot tell when it is finished: it was uploaded once, do not upload it again`,
        );
      }
      progress.update(countIn(current.processed_rows) ?? 0, totalOf(current));
      if (FINISHED.has(status)) return current;
      if (Date.now() >= deadline) {
        throw new CliError(`gave up waiting after ${flags.timeoutMs / 1000}s with import ${id} still ${status}: ${importKeepsRunning(id)}`, ExitCode.unavailable);
      }
      await sleep(flags.intervalMs, signal);
      current = await findImport(client, id, signal, true);
    }
  } finally {
    progress.done();
  }
}

/** The import's current record: one the server does not have is exit 4, one gone during the wait exit 1. */
export async function findImport(client: WsmClient, id: number | string, signal?: AbortSignal, seenBefore = false): Promise<ContactImport> {
  const found = await client.imports.find(id, { signal });
  if (found !== undefined) return found;
  if (seenBefore) {
    throw new CliError(`import ${id} is no longer listed by the server (deleted?): it was uploaded once; \`wsm imports list\` shows the imports it has`, ExitCode.failure);
  }
  throw new CliError(`no import ${id} in this workspace (\`wsm imports list\` shows the imports there are)`, ExitCode.notFound);
}

/**
 * After a wait: a failed import is exit 1 with its first reason; the counts a message; rows the
 * server skipped exit 8 (done, but some items failed) unless --max-failures tolerates them.
 */
export function reportOutcome(ctx: Context, result: ContactImport, limit?: FailureLimit): void {
  if (FAILED.has(statusOf(result) ?? '')) {
    const reason = Array.isArray(result.errors) ? result.errors[0]?.message : undefined;
    throw new CliError(`import ${result.id} failed${reason ? `: ${reason}` : ''}`, ExitCode.failure);
  }
  // Only the counters the server sent: api.md shows none.
  const counts = (['created', 'updated', 'failed'] as const)
    .map((kind) => [kind, result[`${kind}_count`]] as const)
    .filter(([, value]) => typeof value === 'number')
    .map(([kind, value]) => `${countText(value as number)} ${kind}`);
  ctx.output.message(`Import ${result.id} completed${counts.length > 0 ? `: ${counts.join(', ')}` : ''}.`);
  const failed = countIn(result.failed_count) ?? 0;
  const total = countIn(result.total_rows) || (countIn(result.created_count) ?? 0) + (countIn(result.updated_count) ?? 0) + failed;
  endWithFailures(ctx, limit, failed, total, `import ${result.id}: ${countText(failed)} of ${countText(total)} row${total === 1 ? '' : 's'} failed (see its errors)`);
}
