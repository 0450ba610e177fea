// `wsm contacts import FILE.xlsx [--sheet NAME]` (and `imports create`): the sheet is read as the
// spreadsheet displays it (src/formats/xlsx) into rows, which go through the upload flow as a
// CSV's rows do (the same local check and plan, --strict, --dry-run, waits and exit codes) without
// being written out and read back; what is sent is the CSV the API takes (RFC 4180 UTF-8), written
// once from those rows, with the cells the plan holds left out, so every server, the published
// API's too, receives what it receives for a CSV. The CSV's rows are the sheet's rows, so the check
// and the server's errors name sheet rows. A row with a cell holding an error (`#N/A`) is not
// sent: it is an invalid row of the report, named by its cell. The CSV is gone once the import is
// followed, or however the process ends; the rows that failed are written back from the sheet
// itself (sheet-rejects.ts).
import { setImmediate } from 'node:timers/promises';
import { batchedWriter, CopyOverLimit } from './batched-write.js';
import { fstatSync } from 'node:fs';
import { basename } from 'node:path';
import { IMPORT_MAX_BYTES } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { type PrivateFile, privateFile } from '../../cli/private-file.js';
import { refuseOverLimit } from '../shared/verb.js';
import type { CheckOptions, CsvReport, RowProblem } from '../../cli/csv-check.js';
import { mergedByRow } from '../../cli/row-problems.js';
import { readSheetRows } from '../../cli/sheet-rows.js';
import { csvLines, type SheetRecord } from '../../formats/xlsx/sheet-csv.js';
import { digitsNotesByRow, digitsNotice, formulaWarning } from '../contacts/bulk-sheet.js';
import type { NotSentCells } from './check-report.js';
import { cellsWithoutHeld } from './held-cells.js';
import { sayHeld, sayPlan } from './held-upload.js';
import type { HeldByPass } from './hold-pass.js';
import type { HeldCells, PlanSaid } from './import-plan.js';
import type { UploadResult } from './upload.js';
import type { SheetUpload, UploadFlags } from './upload-flags.js';

/** What is sent as CSV written from rows: its source as messages name it, the name it goes under, and its writer. */
export type WrittenUpload = Pick<SheetUpload, 'source' | 'fileName'> & { write(target: number, held: HeldCells): void | Promise<void> };

/** The CSV of `records` written to `target` (an open file), without the cells and rows `held`. */
function writeRecords(records: SheetRecord[], target: number, held: HeldCells): void {
  const header = records[0]?.cells;
  let next = 1;
  const { write, end } = batchedWriter(target, IMPORT_MAX_BYTES);
  for (const record of records) {
    const cells = record.cells === undefined ? undefined : cellsWithoutHeld(record.cells, header, held.get(record.row));
    const lines = csvLines({ row: record.row, cells }, next);
    next = lines.next;
    write(lines.text);
  }
  end();
}

/**
 * The CSV of a sheet's rows (or a CSV file's, canonical-csv.ts) written into a private file,
 * without the cells and rows `held`; refused (exit 2, the copy gone) when it is over the server's
 * limit: its size is not the file's (quotes added, UTF-16 halved), so it is checked once written,
 * before anything is sent.
 */
export async function writtenCopy(sheet: WrittenUpload, held: HeldCells): Promise<PrivateFile> {
  const csv = privateFile(sheet.fileName);
  try {
    await sheet.write(csv.fd, held);
    refuseOverLimit(sheet.source, fstatSync(csv.fd).size, 'file', IMPORT_MAX_BYTES);
    // Writing a large sheet's CSV takes seconds without a turn of the event loop: one now, so that a
    // kept-alive connection the server closed meanwhile is seen closed, not written the upload.
    await setImmediate();
    return csv;
  } catch (error) {
    csv.done();
    if (error instanceof CopyOverLimit) refuseOverLimit(sheet.source, error.bytes, 'file', IMPORT_MAX_BYTES);
    throw error;
  }
}

/**
 * Sends `copy` (writtenCopy's CSV of `sheet`) through `create`: what it holds said first as its
 * plan says (made before the upload), or as the pass found it (hold-pass.ts: its held cells; the
 * rows naming one contact are said after the upload); `done` closes the CSV once the import is
 * followed.
 */
export async function sendSheet<T>(
  ctx: Context,
  sheet: WrittenUpload,
  copy: PrivateFile,
  holding: { plan: PlanSaid; held: HeldCells } | HeldByPass | undefined,
  create: (path: string, name: string) => Promise<T>,
): Promise<{ answer: T; done(): void }> {
  if (holding !== undefined && 'plan' in holding) sayPlan(ctx, sheet.source, holding.plan);
  else if (holding !== undefined) sayHeld(ctx, sheet.source, holding.said);
  return { answer: await create(copy.path, sheet.fileName), done: () => copy.done() };
}

export async function uploadSheet(
  ctx: Context,
  flags: UploadFlags,
  upload: (ctx: Context, flags: UploadFlags) => Promise<UploadResult>,
): Promise<UploadResult> {
  const csvName = `${basename(flags.file).replace(/\.xlsx$/i, '')}.csv`;
  // The records as the CSV holds them, and its rows as its reader would give them: one per sheet row.
  const records: SheetRecord[] = [];
  let bytes = 0;
  let next = 1;
  const { read, items } = await readSheetRows(flags.file, {
    sheet: flags.sheet,
    forImport: true,
    onRecord(record) {
      records.push(record);
      const lines = csvLines(record, next);
      next = lines.next;
      bytes += Buffer.byteLength(lines.text);
    },
  });
  const warning = formulaWarning(flags.file, read);
  if (warning !== undefined) ctx.output.warn(warning);
  const digits = digitsNotice(flags.file, read.digits);
  if (digits !== undefined) ctx.output.notice(digits);
  const notSentProblems: RowProblem[] = read.problems.map((problem) => ({
    row: problem.row,
    line: problem.row,
    field: problem.column === '' ? problem.cell : `${problem.cell} (${problem.column})`,
    message: problem.message,
  }));
  const notSentRows = new Map<number, string>();
  for (const problem of read.problems)
    notSentRows.set(problem.row, [notSentRows.get(problem.row), problem.message].filter(Boolean).join(' '));
  const notSentCells: NotSentCells = new Map();
  for (const { row, cell, error } of read.problems) (notSentCells.get(row) ?? notSentCells.set(row, []).get(row)!).push({ cell, error });
  const notSent = notSentRows.size;
  const spreadsheet: SheetUpload = {
    source: flags.file,
    items,
    bytes,
    write: (target, held) => writeRecords(records, target, held),
    fileName: csvName,
    notSent,
    notSentRows,
    notSentCells,
    rowNotes: digitsNotesByRow(read.digits),
    complete(report: CsvReport, options: CheckOptions): CsvReport {
      // A sheet's row is its name (its rows are read with their row as their line).
      const problems = mergedByRow(
        report.problems,
        [...notSentProblems].sort((a, b) => a.row - b.row),
      );
      if (options.onRow !== undefined && options.untilValid !== true) {
        const byRow = new Map<number, Record<string, string[]>>();
        for (const problem of notSentProblems)
          (byRow.get(problem.row) ?? byRow.set(problem.row, {}).get(problem.row)!)[problem.field] = [problem.message];
        for (const [row, errors] of byRow) options.onRow({ row, line: row, cells: [], errors });
      }
      return { ...report, rows: report.rows + notSent, invalid_rows: report.invalid_rows + notSent, problems };
    },
  };
  return { ...(await upload(ctx, { ...flags, spreadsheet })), sheet: spreadsheet };
}
