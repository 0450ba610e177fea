// `wsm imports get <id> [--wait [--interval 1s] [--timeout 30m]]`: one import, read with GET one
// import where the server has it (an extension), else found in the import list (the published API's own
// operation). With --wait, waits until it is finished (picking up a wait that was interrupted),
// as `contacts import --wait` does, with the same loop.
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine, IMPORT_WAIT_FLAGS } from '../declare.js';
import { parseId, workspaceClient } from '../shared/verb.js';
import { importDetailColumns } from './columns.js';
import { findImport, importFailed, parseWaitFlags, reportOutcome, untilImportInterrupted, waitForImport, type WaitFlags } from './wait.js';

export interface ImportGetOptions extends WaitFlags {
  id: number;
  wait: boolean;
}

/** The import as read, or once --wait saw it finish (then its outcome decides the exit). */
export interface ImportRead {
  record: ContactImport;
  finished: boolean;
}

export function parse({ args, opts }: CommandLine<typeof IMPORT_WAIT_FLAGS>): ImportGetOptions {
  const id = parseId(args[0], 'import id');
  return { id, wait: opts.wait === true, ...parseWaitFlags(opts) };
}

export async function run(ctx: Context, options: ImportGetOptions): Promise<ImportRead> {
  const { id } = options;
  const client = await workspaceClient(ctx);
  if (!options.wait) return { record: await findImport(client, id), finished: false };
  return { record: await untilImportInterrupted(ctx, id, (signal) => waitForImport(ctx, client, id, options, signal)), finished: true };
}

export async function render(ctx: Context, { record, finished }: ImportRead): Promise<void> {
  // With -o json a failed import's one document is the error's, the record inside it (settle).
  if (finished && importFailed(record) && ctx.output.structured) return;
  return ctx.output.record(record, { columns: importDetailColumns });
}

/** After --wait: a failed import, or rows that failed beyond --max-failures, decide the exit. */
export function settle(ctx: Context, { record, finished }: ImportRead, { maxFailures }: ImportGetOptions): void {
  if (finished) reportOutcome(ctx, record, maxFailures);
}
