// `wsm imports get <id> [--wait [--interval 1s] [--timeout 30m]]`: one import, read with GET one
// import where the server has it (an extension), else found in the import list (api.md's own
// operation). With --wait, waits until it is finished (picking up a wait that was interrupted),
// as `contacts import --wait` does, with the same loop.
import { parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { get } from '../imports.js';
import { importDetailColumns } from './columns.js';
import { findImport, parseWaitFlags, reportOutcome, untilImportInterrupted, waitForImport } from './wait.js';

export const run: VerbRun = typedRun<typeof get>(async (ctx, { args, opts }) => {
  const id = parseId(args[0], 'import id');
  const wait = opts.wait === true;
  const flags = parseWaitFlags(opts);
  const client = await workspaceClient(ctx);
  if (wait) {
    const final = await untilImportInterrupted(ctx, id, (signal) => waitForImport(ctx, client, id, flags, signal));
    await ctx.output.record(final, { columns: importDetailColumns });
    reportOutcome(ctx, final, flags.maxFailures);
    return;
  }
  await ctx.output.record(await findImport(client, id), { columns: importDetailColumns });
});
