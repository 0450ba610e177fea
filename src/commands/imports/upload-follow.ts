// After an import's upload: its id said (stderr even in a CI log), the rows checked while the
// server works through the file when they were not checked before, and the wait when asked for.
import type { WsmClient } from '../../api/client.js';
import { UnusableResponseError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import type { CheckedRow, CheckOptions, CsvReport, FieldIds } from '../../cli/csv-check.js';
import { refuseOrWarn, warnWhatIsSkipped } from './check-report.js';
import { sayPlan } from './held-upload.js';
import type { PlanAfterUpload } from './import-plan.js';
import type { UploadResult } from './upload.js';
import type { UploadFlags } from './upload-flags.js';
import { type SentColumns, sayUnshownAfterImport } from './unshown-after.js';
import { importFailed, untilImportInterrupted, waitForImport } from './wait.js';
import { type ImportTally, plannedOutcome, summaryText } from './import-tally.js';

/** After the upload: the id said, the rows checked while the server works (when not before), and the wait. */
export async function followUpload(
  ctx: Context,
  flags: UploadFlags,
  client: WsmClient,
  answer: Awaited<ReturnType<WsmClient['imports']['create']>>,
  check: {
    checkRows: (options: CheckOptions) => Promise<CsvReport>;
    report: CsvReport | undefined;
    fields: FieldIds | undefined;
    /** A plan that holds nothing, made as the rows are checked after the upload: what it says of them is said then. */
    planning?: PlanAfterUpload;
    /** The groups and fields the rows send: after --wait, checked where the server's contacts show neither. */
    sent?: SentColumns;
    /** Each row as the check after the upload reads it (the journal's outcome of the rows sent). */
    onRow?: (row: CheckedRow) => void;
    /** The run's counts in the plan's categories, followed as the rows are checked (before the upload or after it). */
    tally?: ImportTally;
  },
): Promise<UploadResult> {
  const { fields, planning, onRow } = check;
  const checkRows = (options: CheckOptions) =>
    check.checkRows({
      ...options,
      ...(planning !== undefined ? { onNumber: planning.onNumber } : {}),
      ...(onRow !== undefined ? { onRow } : {}),
    });
  let { report } = check;
  const uploaded: UploadResult = answer.data !== undefined ? { import: answer.data } : { answer: answer.body };
  const id = answer.data?.id;
  if (id === undefined || id === null) {
    ctx.output.warn(`${flags.file} was uploaded, but the server's answer holds no import id`);
    await checkAfterUpload(ctx, flags, checkRows, report, fields, undefined, planning);
    if (flags.wait) {
      throw new UnusableResponseError(
        `${flags.file} was uploaded, but the server's answer has no import \`id\` to wait for: do not upload it again (\`wsm imports list\` shows it)`,
      );
    }
    return uploaded;
  }
  // On stderr even in a CI log: the id is what a later `wsm imports get` needs.
  ctx.output.done(`uploaded ${flags.file} as import ${id}`);
  // From here the import runs on the server whatever happens to this process: Ctrl-C says so.
  const { tally } = check;
  const final = await untilImportInterrupted(ctx, id, async (signal) => {
    report = await checkAfterUpload(ctx, flags, checkRows, report, fields, signal, planning);
    if (!flags.wait && tally !== undefined && report !== undefined)
      ctx.output.message(
        `Import ${id} expected: ${summaryText(tally.counts(report).summary)} (\`wsm imports get ${id} --wait\` reports what it did).`,
      );
    if (!flags.wait || answer.data === undefined) return undefined;
    const record = await waitForImport(ctx, client, id, flags, signal, answer.data);
    if (check.sent !== undefined && !importFailed(record)) await sayUnshownAfterImport(ctx, client, flags.file, id, check.sent, signal);
    return record;
  });
  if (final === undefined) return uploaded;
  // A plan that was followed over every row gives the outcome in its categories; the server's counters are checked against it.
  const planned =
    tally !== undefined && report !== undefined && !importFailed(final)
      ? plannedOutcome(tally, report, final, flags.spreadsheet)
      : undefined;
  return {
    import: final,
    finished: true,
    ...(report !== undefined ? { checked: report } : {}),
    ...(planned !== undefined ? { planned } : {}),
  };
}

/** The rows of a file already sent, checked while the server works through it: each problem a warning. */
async function checkAfterUpload(
  ctx: Context,
  flags: UploadFlags,
  checkRows: (options: CheckOptions) => Promise<CsvReport>,
  report: CsvReport | undefined,
  fields: FieldIds | undefined,
  signal?: AbortSignal,
  planning?: PlanAfterUpload,
): Promise<CsvReport | undefined> {
  if (report === undefined) {
    try {
      report = await checkRows({ signal, fields });
      refuseOrWarn(ctx, flags, report);
      if (planning !== undefined) sayPlan(ctx, flags.file, planning.finish());
    } catch (error) {
      if (signal?.aborted) throw error;
      // The import exists on the server: say why the rows went unchecked, and go on to report it.
      ctx.output.warn(`the rows of ${flags.file} were not checked after sending: ${(error as Error).message}`);
    }
  }
  if (report !== undefined) warnWhatIsSkipped(ctx, flags.file, report, flags.spreadsheet?.notSentCells);
  return report;
}
