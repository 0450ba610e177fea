// `wsm contacts import FILE.xlsx [--sheet NAME]` (and `imports create`): the sheet is read as the
// spreadsheet displays it (src/formats/xlsx) into a private temporary CSV, and that CSV goes through
// the upload flow as any CSV does (the same local check, --strict, --dry-run, waits and exit codes),
// so every server, the published API's too, receives RFC 4180 UTF-8 CSV. The CSV's rows are the
// sheet's rows, so the check and the server's errors name sheet rows. A row with a cell holding an
// error (`#N/A`) is not sent: it is an invalid row of the report, named by its cell. The CSV is
// gone once the upload is done, or however the process ends; the rows that failed are written back from the sheet itself
// (sheet-rejects.ts).
import { writeSync } from 'node:fs';
import { basename } from 'node:path';
import type { Context } from '../../cli/context.js';
import { privateFile } from '../../cli/private-file.js';
import type { CheckOptions, CsvReport, RowProblem } from '../../cli/csv-check.js';
import { sheetToCsv } from '../../formats/xlsx/sheet-csv.js';
import { digitsNotesByRow, digitsNotice, formulaWarning } from '../contacts/bulk-sheet.js';
import type { NotSentCells } from './check-report.js';
import type { FailedLines } from './rejects.js';
import type { SheetUpload, UploadFlags, UploadResult } from './upload.js';

export async function uploadSheet(
  ctx: Context,
  flags: UploadFlags,
  upload: (ctx: Context, flags: UploadFlags) => Promise<UploadResult>,
): Promise<UploadResult> {
  // The sheet's CSV is a file no other process can find, gone whatever ends this one (private-file.ts).
  const csvName = `${basename(flags.file).replace(/\.xlsx$/i, '')}.csv`;
  const csv = privateFile(csvName);
  try {
    const read = await sheetToCsv(flags.file, { sheet: flags.sheet, forImport: true, write: (text) => void writeSync(csv.fd, text) });
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
    const notSentRows: FailedLines = new Map();
    for (const problem of read.problems)
      notSentRows.set(problem.row, [notSentRows.get(problem.row), problem.message].filter(Boolean).join(' '));
    const notSentCells: NotSentCells = new Map();
    for (const { row, cell, error } of read.problems) (notSentCells.get(row) ?? notSentCells.set(row, []).get(row)!).push({ cell, error });
    const notSent = notSentRows.size;
    const spreadsheet: SheetUpload = {
      csv: csv.path,
      fileName: csvName,
      notSent,
      notSentRows,
      notSentCells,
      rowNotes: digitsNotesByRow(read.digits),
      complete(report: CsvReport, options: CheckOptions): CsvReport {
        // A sheet's row is its name: the line of the CSV in between means nothing to its reader.
        const problems = [...report.problems.map((problem) => ({ ...problem, line: problem.row })), ...notSentProblems].sort(
          (a, b) => a.row - b.row,
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
  } finally {
    csv.done();
  }
}
