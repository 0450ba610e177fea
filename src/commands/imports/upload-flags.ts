// The command line of an upload (`wsm contacts import`, `wsm imports create`): its flags as the
// upload verb (upload.ts) and the sheet reader (sheet-upload.ts) take them. A flag that cannot go
// with another is refused here, before any file is read.
import type { CsvItem } from '../../api/import-csv.js';
import type { CheckOptions, CsvReport } from '../../cli/csv-check.js';
import { UsageError } from '../../cli/errors.js';
import { isSpreadsheetFile } from '../contacts/bulk-sheet.js';
import type { FlagOptions, UPLOAD_FLAGS } from '../declare.js';
import { parseId } from '../shared/verb.js';
import type { NotSentCells } from './check-report.js';
import type { HeldCells } from './import-plan.js';
import { parseWaitFlags, type WaitFlags } from './wait.js';

export interface UploadFlags extends WaitFlags {
  file: string;
  name?: string;
  group?: number;
  dryRun: boolean;
  strict: boolean;
  wait: boolean;
  /** --rejects: where the rows that failed are written. */
  rejects?: string;
  /** --sheet: the sheet of an .xlsx file. */
  sheet?: string;
  /** --apply-flagged: changes that look made by a spreadsheet go in too (the file is sent as it is, at once). */
  applyFlagged: boolean;
  /** An .xlsx file: the CSV its sheet was read into, which is checked and sent instead (sheet-upload.ts). */
  spreadsheet?: SheetUpload;
}

/** An .xlsx sheet read into rows (sheet-upload.ts): those rows, the CSV they make, and its rows not sent (a cell holding an error). */
export interface SheetUpload {
  /** The workbook, as messages name it. */
  source: string;
  /** The rows as a CSV's reader gives them, header first, each with its sheet row as its row and line. */
  items: CsvItem[];
  /** The size of the CSV the rows make. */
  bytes: number;
  /** Writes that CSV into `target` (an open file), without the cells and rows `held`. */
  write(target: number, held: HeldCells): void;
  /** The name the CSV is sent under (`people.csv`). */
  fileName: string;
  /** Rows not sent, as the check's report counts them: each is an invalid row. */
  notSent: number;
  /** Why each row not sent was not, by sheet row. */
  notSentRows: Map<number, string>;
  /** The cells (`B4`) and their errors (`#N/A`) that kept each row from being sent, by sheet row. */
  notSentCells: NotSentCells;
  /** Notes on cells read otherwise than shown (digits the display drops), by sheet row: under each row's contact in a plan. */
  rowNotes: ReadonlyMap<number, string[]>;
  /** The report of the CSV with the rows not sent added, every row named by its sheet row (and given to `onRow`, for a plan). */
  complete(report: CsvReport, options: CheckOptions): CsvReport;
}

/** `contacts import` adds --dry-run and --strict to the upload's flags; `imports create` has neither. */
export type UploadOptions = FlagOptions<typeof UPLOAD_FLAGS> & { dryRun?: true; strict?: true };

/**
 * The upload's flags, refused where they cannot go together; `dryRunFlag`: the verb has --dry-run
 * (`contacts import`), so a refusal may name it.
 */
export function parseUploadFlags(file: string, opts: UploadOptions, dryRunFlag = false): UploadFlags {
  const flags: UploadFlags = {
    file,
    dryRun: opts.dryRun === true,
    strict: opts.strict === true,
    wait: opts.wait === true,
    applyFlagged: opts.applyFlagged === true,
    ...parseWaitFlags(opts),
  };
  if (opts.name !== undefined) flags.name = opts.name;
  if (opts.sheet !== undefined) flags.sheet = opts.sheet;
  if (opts.rejects !== undefined) {
    // The rows that failed are known once the server has processed the file (or, in a dry run, from the check).
    if (!flags.wait && !flags.dryRun)
      throw new UsageError(
        `--rejects needs --wait${dryRunFlag ? ' (or --dry-run)' : ''}: the rows that failed are known once the server has processed the file`,
      );
    if (opts.rejects === '-')
      throw new UsageError(
        "--rejects - is refused: standard output carries the import's report, and the rows would be mixed into it; name a file",
      );
    if (isSpreadsheetFile(file) !== isSpreadsheetFile(opts.rejects)) {
      throw new UsageError(
        `--rejects writes the rows back in the input's format: name it .${isSpreadsheetFile(file) ? 'xlsx' : 'csv'} (${file} is ${isSpreadsheetFile(file) ? 'a workbook' : 'CSV'})`,
      );
    }
    flags.rejects = opts.rejects;
  }
  if (opts.group !== undefined) flags.group = parseId(opts.group, '--group');
  return flags;
}

/** The command line of `imports create`: the file, then its flags. */
export const parseUpload = ({ args, opts }: { args: string[]; opts: UploadOptions }): UploadFlags => parseUploadFlags(args[0], opts);

/** The command line of `contacts import`: an upload's, with --dry-run and --strict. */
export const parseContactsImport = ({ args, opts }: { args: string[]; opts: UploadOptions }): UploadFlags =>
  parseUploadFlags(args[0], opts, true);
