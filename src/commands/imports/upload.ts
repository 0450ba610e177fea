// The upload verb behind `wsm contacts import` and `wsm imports create`: check the CSV's header
// locally, send it, report its bad rows (checked first under --strict and --dry-run), and
// optionally wait for the server to finish processing it (wait.ts). An .xlsx sheet, and a CSV no
// server but wsm's reads as wsm does, go as the CSV of their rows (sheet-upload.ts, canonical-csv.ts).
import { basename } from 'node:path';
import { formatNotes } from '../../api/import-csv.js';
import { IMPORT_MAX_BYTES, type ContactImport } from '../../api/schemas/index.js';
import { hostFile } from '../../cli/host-files.js';
import { keepRowsYoung } from '../../cli/young-rows.js';
import type { Context } from '../../cli/context.js';
import { countOf, countText } from '../../cli/text.js';
import {
  checkHeaderRow,
  checkImportCsv,
  checkImportHeader,
  checkImportItems,
  formatNoticeLines,
  importColumns,
  type CheckOptions,
  type CsvReport,
} from '../../cli/csv-check.js';
import { checkSheetFlag, isSpreadsheetFile } from '../contacts/bulk-sheet.js';
import { checkGroupFlag } from '../shared/group-flag.js';
import { endWithFailures } from '../shared/max-failures.js';
import { clientIfConfigured, refuseOverLimit, workspaceClient } from '../shared/verb.js';
import { fieldIdsOf } from '../shared/workspace-fields.js';
import { importDetailColumns } from './columns.js';
import { canonicalUpload, sizeWithinLimit } from './canonical-csv.js';
import { quoteScan } from './open-quote.js';
import { refuseNoValidRow, refuseOrWarn, warnColumns } from './check-report.js';
import { beforeCheck, dryRunPlanning, runPlanning } from './import-plan.js';
import { type DryRun, startDryRun } from './dry-run.js';
import { type FileScan, scanCsv, scanItems, textScan } from './hold-scan.js';
import { renderDryRun } from './dry-run-render.js';
import { PlanSaying, sendAsPlanned, sendPassed } from './held-upload.js';
import { passForHolds } from './hold-pass.js';
import { fileNumbers, repeatCounts } from './file-numbers.js';
import { beginImportChange } from '../../journal/import-change.js';
import { followedOutcome } from '../../journal/import-outcome.js';
import { locallyFailed } from './rejects.js';
import { refuseRejectsOverInput } from './rejects-target.js';
import { assertImportableFile } from '../../cli/import-source.js';
import { rejectsAfterImport, writeRejects } from './upload-rejects.js';
import { followUpload } from './upload-follow.js';
import { SentColumns } from './unshown-after.js';
import type { PlannedOutcome } from './import-tally.js';
import { importFailed, reportOutcome } from './wait.js';
import type { SheetUpload, UploadFlags } from './upload-flags.js';

/** What an upload did: the dry run's report, or the import as last read. */
export interface UploadResult {
  /** --dry-run: the rows' check and, with a workspace, what each row would do to it, read as render takes them; nothing is sent. */
  dryRun?: DryRun;
  /** The import: the upload's answer, or once --wait saw it finish, its last record. */
  import?: ContactImport;
  /** The upload's answer as it came, when it held no import record. */
  answer?: unknown;
  /** --wait saw the import finish: its outcome decides the exit. */
  finished?: boolean;
  /** The rows as the local check found them (for --rejects, where the server keeps only some errors). */
  checked?: CsvReport;
  /** An .xlsx file's sheet, as it was sent. */
  sheet?: SheetUpload;
  /** A finished import that ran from a plan: its outcome in the plan's categories. */
  planned?: PlannedOutcome;
}

export async function uploadImport(ctx: Context, flags: UploadFlags): Promise<UploadResult> {
  keepRowsYoung();
  hostFile(ctx, flags.file);
  if (flags.spreadsheet === undefined) await assertImportableFile(flags.file);
  if (flags.rejects !== undefined && flags.spreadsheet === undefined)
    await refuseRejectsOverInput(hostFile(ctx, flags.rejects), flags.file);
  checkSheetFlag(flags.file, flags.sheet);
  if (isSpreadsheetFile(flags.file) && flags.spreadsheet === undefined) {
    const { uploadSheet } = await import('./sheet-upload.js');
    return uploadSheet(ctx, flags, uploadImport);
  }
  const sheet = flags.spreadsheet;
  const csv = flags.file;
  // The server refuses a file over its limit only once all of it has arrived: said before sending.
  const size = sheet?.bytes ?? (await sizeWithinLimit(csv, flags.file));
  if (sheet !== undefined) refuseOverLimit(flags.file, size, 'file', IMPORT_MAX_BYTES);
  // What stops an import is known from the whole file's encoding and its header: decided before anything is sent.
  const text = textScan();
  const quotes = quoteScan(text.feed);
  const format = sheet === undefined ? await checkImportHeader(csv, flags.file, quotes.feed) : checkHeaderRow(flags.file, sheet.items[0]);
  if (format) for (const line of formatNoticeLines(flags.file, formatNotes(format))) ctx.output.notice(line);
  /** Whether a cell may be held, and the file's numbers written with and without leading zeros (hold-scan.ts). */
  const scan = async (): Promise<FileScan> => (sheet !== undefined ? scanItems(sheet.items) : scanCsv(csv, text));
  /** The file's rows, as the passes before the check read them: the CSV from disk, or the sheet's in memory. */
  const rowSource = sheet !== undefined ? { items: sheet.items } : { csv };
  /** The file's numbers, read only where the workspace is too large to read whole (large-workspace.ts). */
  const file = { scan, numbers: (most: number) => fileNumbers(rowSource, most) };
  let counted: Promise<Map<string, number>> | undefined;
  /** How many rows name each number named more than once, read once however many passes ask (file-numbers.ts). */
  const repeats = () => (counted ??= repeatCounts(rowSource));
  const client = flags.dryRun ? await clientIfConfigured(ctx) : await workspaceClient(ctx);
  if (format) await quotes.refuseOpen(format, csv, flags.file, client);
  const fields = client === undefined ? undefined : await fieldIdsOf(ctx, client, flags.dryRun);
  if (flags.group !== undefined && client !== undefined) await checkGroupFlag(client, [flags.group]);
  // --strict and --dry-run decide on the row check's verdict, so it comes first. Otherwise one pass finds the cells a plan holds
  // (hold-scan.ts, hold-pass.ts), the file goes without them once it holds a valid row, and its rows are checked while the server works.
  const planning = !flags.dryRun && (!flags.applyFlagged || flags.strict) ? await runPlanning(ctx, client!, flags, file) : undefined;
  // A dry run reads the workspace before the check (which may ask what its contacts show), and plans the rows it keeps after it.
  const { workspace, reading } = await beforeCheck(ctx, client, flags, planning, file);
  const sent = new SentColumns();
  /** The rows checked as a CSV's are (a sheet's as read, its rows not sent added: sheet-upload.ts), their groups and fields noted. */
  const checkRows = async (checking: CheckOptions) => {
    const options = sent.noting({ ...checking, ...(reading !== undefined ? { reading } : {}) });
    if (sheet === undefined) return checkImportCsv(csv, { ...options, source: flags.file });
    return sheet.complete(await checkImportItems(sheet.items, { ...options, source: flags.file }), options);
  };
  const pass =
    planning?.holdsNothing === false && !flags.strict
      ? await passForHolds(rowSource, planning.live, fields, planning.options, { repeats: await repeats(), reading })
      : undefined;
  const planFirst = planning !== undefined && (flags.strict || (!planning.holdsNothing && pass === undefined));
  if (flags.dryRun) {
    // A dry run plans each row as the check reads it: the file's twins (hold-scan.ts) and its header are known first.
    const planned = workspace;
    const dryRun = await startDryRun({
      check: (options) => checkRows({ fields, ...options }),
      ...(planned !== undefined
        ? {
            planning: async (settling) =>
              dryRunPlanning(planned, await importColumns(flags.file, sheet?.items ?? csv, fields), flags, (await scan()).twins, settling),
          }
        : {}),
      repeats,
      async after(report) {
        if (flags.rejects !== undefined) await writeRejects(ctx, flags.rejects, flags, locallyFailed(report));
        if (!flags.strict) warnColumns(ctx, report);
      },
      ...(sheet?.rowNotes !== undefined ? { rowNotes: sheet.rowNotes } : {}),
    });
    return { dryRun };
  }
  const outcome = planning && followedOutcome(ctx, pass?.held ?? planning.held, flags.spreadsheet !== undefined);
  const onRow = outcome?.following(planning!.onRow) ?? planning?.onRow;
  let report: CsvReport | undefined;
  /** A plan made first: what is said of it, its contacts taken as they are settled (never held whole). */
  let saying: PlanSaying | undefined;
  /** The file's columns, as its header names them. */
  let columns: string[];
  if (flags.strict || planFirst) {
    const said = new PlanSaying();
    saying = said;
    planning!.settleWith({
      repeats: await repeats(),
      settled: (contact) => said.add(contact),
    });
    report = await checkRows({ fields, ...(onRow !== undefined ? { onRow } : {}) });
    columns = report.columns;
    planning!.finish();
    // What is not sent (a refusal under --strict) is rejected by the check alone.
    const refused = flags.strict && (report.invalid_rows > 0 || report.unknown_columns.length > 0);
    if (flags.rejects !== undefined && refused) await writeRejects(ctx, flags.rejects, flags, locallyFailed(report));
    if (!flags.strict) warnColumns(ctx, report);
    if (!refused && report.valid_rows === 0) refuseNoValidRow(flags.file, report);
    refuseOrWarn(ctx, flags, report);
    if (flags.strict) said.repeated.refuse(flags.file);
  } else {
    const start = await checkRows({ fields, untilValid: true }); // to the first valid row: a file with none is not sent at all
    columns = start.columns;
    warnColumns(ctx, start);
    if (start.valid_rows === 0) refuseNoValidRow(flags.file, start);
  }
  const unplanned = planFirst ? undefined : (options: CheckOptions) => checkRows({ fields, ...options });
  // A copy without the held cells stays open until the import is followed: a body may be read late.
  const planned = planFirst ? { plan: saying!.said(planning.options.unread), held: planning.held } : undefined;
  const written = sheet ?? (format ? canonicalUpload(csv, flags.file, format) : undefined);
  const sheetUpload = written === undefined ? undefined : await import('./sheet-upload.js');
  const copy = written === undefined ? undefined : await sheetUpload!.writtenCopy(written, (planned ?? pass)?.held ?? new Map());
  let journal: Awaited<ReturnType<typeof beginImportChange>> | undefined;
  const create = (filePath: string, fileName: string | undefined, bytes?: Blob) =>
    client!.imports.create({
      name: flags.name ?? basename(flags.file),
      ...(flags.group !== undefined ? { contact_groups: flags.group } : {}),
      filePath,
      fileName,
      bytes,
    });
  let uploaded: { answer: Awaited<ReturnType<typeof create>>; done: () => void } | undefined;
  let result: UploadResult | undefined;
  // A plan not made first has only the rows naming one contact left to say: found as the rows are checked after the upload.
  const planAfter = planFirst ? undefined : planning?.afterUpload(pass?.skipped);
  try {
    const groupsSent = flags.wait && columns.includes('contact_groups');
    journal = await beginImportChange(ctx, flags.file, size, { client: client!, planned: planning, unplanned, groupsSent });
    uploaded =
      written !== undefined && copy !== undefined
        ? await sheetUpload!.sendSheet(ctx, written, copy, planned ?? pass, create)
        : planned === undefined
          ? await sendPassed(ctx, flags.file, { path: csv, name: undefined }, pass, create)
          : await sendAsPlanned(ctx, flags.file, { path: csv, name: undefined }, planned.held, planned.plan, create);
    const follow = { checkRows, report, fields, planning: planAfter, sent, onRow: outcome?.add, tally: planning?.tally };
    result = await followUpload(ctx, flags, client!, uploaded.answer, follow);
    return result;
  } finally {
    if (uploaded !== undefined) uploaded.done();
    else copy?.done();
    await journal?.end(outcome, result);
  }
}

/** The import as -o json prints it and `wsm mcp` returns it: the record, else the answer as it came. */
export function uploadData(result: UploadResult): unknown {
  if (result.import !== undefined && result.planned !== undefined) return { ...result.import, summary: result.planned.summary };
  return result.import ?? result.answer ?? null;
}

export async function renderUpload(ctx: Context, result: UploadResult): Promise<void> {
  if (result.dryRun !== undefined) return renderDryRun(ctx, result.dryRun, result.sheet?.notSent);
  // With -o json a failed import's one document is the error's, the record inside it (settleUpload).
  if (result.import !== undefined && result.finished === true && importFailed(result.import) && ctx.output.structured) return;
  if (result.import !== undefined) await ctx.output.record(uploadData(result) as ContactImport, { columns: importDetailColumns });
  else if (ctx.output.structured) ctx.output.json(uploadData(result), false);
}

/**
 * After the data: a dry run with invalid rows, or a finished import's outcome: its failed rows
 * written to --rejects, then exit 8 for them unless --max-failures tolerates them.
 */
export async function settleUpload(ctx: Context, result: UploadResult, flags: UploadFlags): Promise<void> {
  if (result.dryRun !== undefined) {
    const { report } = await result.dryRun.finish();
    // What --strict refuses is said once the plan was shown: exit 2.
    refuseOrWarn(ctx, flags, report);
    if (flags.strict) result.dryRun.repeated.refuse(flags.file);
    if (report.valid_rows === 0) refuseNoValidRow(flags.file, report);
    endWithFailures(
      ctx,
      flags.maxFailures,
      report.invalid_rows,
      report.rows,
      `${countText(report.invalid_rows)} of ${countOf(report.rows, 'row')} in ${flags.file} ${report.invalid_rows === 1 ? 'is' : 'are'} invalid`,
    );
    return;
  }
  if (result.finished !== true) return;
  if (flags.rejects !== undefined)
    await rejectsAfterImport(
      ctx,
      await workspaceClient(ctx),
      flags.rejects,
      { ...flags, spreadsheet: result.sheet },
      result.import!,
      result.checked,
    );
  reportOutcome(ctx, result.import!, flags.maxFailures, [...(result.sheet?.notSentRows.keys() ?? [])], result.planned);
}
