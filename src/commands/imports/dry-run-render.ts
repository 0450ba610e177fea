// How an import's dry run is shown (dry-run.ts): the plan's contacts as they come, what the plan
// says after them (plan-render.ts), then the check's report. -o json gives one document,
// its `contacts` written as they come and the report's and the counts' keys after them, the
// report's `problems` a problem at a time (never one string of them).
import type { Context } from '../../cli/context.js';
import { writeStreamedDocument } from '../../cli/streamed-json.js';
import { writePlanContacts, writePlanEnd } from '../contacts/plan-render.js';
import { reportColumns } from './check-report.js';
import type { DryRun } from './dry-run.js';

/** `notSent`: a sheet's rows the check does not send (said by the sheet), not counted among those the server would skip. */
export async function renderDryRun(ctx: Context, dryRun: DryRun, notSent = 0): Promise<void> {
  const { output } = ctx;
  let invalid = 0;
  const done = async () => {
    const { report, plan } = await dryRun.finish();
    invalid = report.invalid_rows;
    return { ...report, ...plan };
  };
  // --jq and --json select from the one document, so they are given it whole; -q prints a record's id (it has none).
  if (!dryRun.planned && output.structured && (output.selecting || output.quiet)) await output.record(await done());
  else if (output.structured)
    await writeStreamedDocument(output, dryRun.planned ? [{ contacts: dryRun.contacts }, done] : [done], output.format === 'json');
  else {
    const counts = await writePlanContacts(ctx, dryRun.contacts);
    const { report, plan } = await dryRun.finish();
    invalid = report.invalid_rows;
    if (plan !== undefined) writePlanEnd(ctx, plan, counts);
    await output.record(report, { columns: reportColumns, idKey: 'file' });
  }
  output.message(`Dry run: nothing was sent. ${invalid > notSent ? 'The server would skip the invalid rows.' : ''}`.trim());
}
