// The local check `wsm contacts import` runs before uploading (docs/import-file.md): the whole
// file must be text (a fatal decoder, never a sample) and a CSV with a `number` column; each row is
// held to the same `importRow` schema the server applies (the rules of `contacts create`), read the
// same way (same reader and column plan: headers trimmed and lowercased, first of a duplicate wins,
// empty cells absent, an export's `'` taken off formula-like values), so the warnings name the
// rows the server would skip.
import { check, importRow, type FieldErrors, type ImportRow } from '../api/schemas/index.js';
// The server's own reader and column plan (pure modules: node file reads only, nothing of
// fastify or SQLite), so the rows, their line numbers and what counts as a row are the server's.
import { CONTACT_COLUMNS, emptiedKeys, planColumns, readColumnNames, readRow, type ColumnPlan } from '../api/import-columns.js';
import { refuseRepeatedColumns } from './repeated-columns.js';
import { findEncodingProblem, type EncodingProblem } from '../formats/csv/encoding.js';
import { type BeyondHeader, hasCells, headerName, openCsv, type CsvFormat, type CsvItem } from '../api/import-csv.js';
import { RequestValidationError } from './errors.js';
import { closest } from './similar.js';
import { turnAfter } from './loop-turns.js';
import { rowName } from './text.js';
import { RowProblems } from './row-problems.js';
import {
  BEYOND_HEADER,
  type ServerReading,
  type UnreadableCell,
  type UnreadableCounts,
  UnreadableTally,
  withoutUnreadable,
} from './unreadable-cells.js';

/** Where a row is in the file: its spreadsheet row (the header is row 1) and the line it starts on. */
interface RowPlace {
  row: number;
  line: number;
}

/** The problem key of a row that could not be read at all (a quote never closed): no field of it is to blame. */
export const WHOLE_ROW = 'row';

export type { RowProblem } from './row-problems.js';

/** A column the import will not read: neither a contact attribute nor a contact field of the workspace. */
export interface UnknownColumn {
  /** As the header writes it (trimmed). */
  column: string;
  /** 1-based, as a spreadsheet counts columns. */
  position: number;
  /** The attributes and fields whose names are close to it. */
  did_you_mean: string[];
}

export interface CsvReport {
  file: string;
  /** Header names as the server reads them (trimmed, lowercase). */
  columns: string[];
  rows: number;
  valid_rows: number;
  invalid_rows: number;
  /** Every problem of every invalid row, in file order, a few bytes each (row-problems.ts). */
  problems: RowProblems;
  /** Columns that are neither contact attributes nor the workspace's fields (known only when the fields were read). */
  unknown_columns: UnknownColumn[];
  /** Whether the workspace's contact fields were known, so that every column could be checked. */
  fields_checked: boolean;
  /** Without the fields: the columns that are no contact attribute, which may or may not be fields. */
  unchecked_columns: string[];
  /** Valid rows' cells the check refuses but the server may take, sent as written (unreadable-cells.ts): by column, only where there are some. */
  unreadable_cells?: UnreadableCounts;
}

/** One data row as the check read it: where it is, its cells (as the import reads them) and its verdict. */
export interface CheckedRow extends RowPlace {
  cells: string[];
  /** The row as the import would apply it, when it is valid. */
  value?: ImportRow;
  /** Why the import would skip it, when it is not. */
  errors?: FieldErrors;
  /** The columns it leaves empty (a valid row): the import keeps those values (import-columns.ts emptiedKeys). */
  emptied?: string[];
  /** Its number cell as written (a valid row): a plan tells what a spreadsheet made of it. */
  written?: string;
  /** Its cells the check refuses but the server may take (unreadable-cells.ts): sent as written; an e-mail is in `value` as written, the others not. */
  unreadable?: Record<string, UnreadableCell>;
}

/** The workspace's contact fields by name, when known: their columns are checked as the server checks them. */
export type FieldIds = Map<string, number>;

/** The header row as the server reads it; throws RequestValidationError (exit 2) when it cannot start an import. */
function readHeader(file: string, row: CsvItem, fields: FieldIds | undefined): { columns: string[]; plan: ColumnPlan } {
  if (row.kind === 'error') throw notCsv(file, `line ${row.line}: ${row.message}`);
  // The server takes a column named twice from its first cell; a server whose reading is not known may take the last.
  refuseRepeatedColumns(readColumnNames(row.cells), file);
  const plan = planColumns(row.cells, fields);
  if (plan.contact.number === undefined) {
    throw new RequestValidationError(`${file} has no "number" column: the header row must name one`, {
      number: ['The header row must have a number column.'],
    });
  }
  return { columns: row.cells.map(headerName), plan };
}

/** The columns of `plan` the import will not read, each with the names close to it; none when the fields are not known. */
function unknownColumns(plan: ColumnPlan, fields: FieldIds | undefined): UnknownColumn[] {
  if (fields === undefined) return [];
  const known = [...CONTACT_COLUMNS, ...fields.keys()];
  return plan.unknown.map(({ index, column }) => ({ column, position: index + 1, did_you_mean: closest(headerName(column), known) }));
}

/** Input wsm cannot decode, refused before anything is sent: where, what, and what to do. */
export function encodingRefusal(source: string, problem: EncodingProblem): RequestValidationError {
  return new RequestValidationError(`${source} ${problem.message}; nothing was sent. ${problem.fix}`);
}

/** How an input was read (formatNotes: a UTF-16 or semicolon-separated CSV), said under its name. */
export function formatNoticeLines(source: string, notes: string[]): string[] {
  return notes.map((note) => `${source}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
}

/**
 * Everything that stops an import of a file import-source.ts let through (docs/import-file.md: no
 * `number` column, not text) is decided before anything is sent: the whole file is decoded, then its header read.
 * Throws RequestValidationError (exit 2); gives back how the file is read (encoding, separator).
 * `onText` sees the decoded text as it goes by, a chunk at a time.
 */
export async function checkImportHeader(file: string, source = file, onText?: (text: string) => void): Promise<CsvFormat> {
  const problem = await findEncodingProblem(file, onText);
  if (problem) throw encodingRefusal(source, problem);
  const csv = await openCsv(file);
  let header: CsvItem | undefined;
  for await (const row of csv.rows) {
    header = row;
    break;
  }
  checkHeaderRow(source, header);
  return csv.format;
}

export interface CheckOptions {
  signal?: AbortSignal;
  /** The workspace's contact fields: their columns are checked, and every other column is named. */
  fields?: FieldIds;
  /** Stop at the first valid row (enough to know the file is worth sending). */
  untilValid?: boolean;
  /** The file as the user named it, for messages (an .xlsx read into a CSV): the file itself by default. */
  source?: string;
  /** Each data row with its verdict, as it is read (a plan reads the rows without the report holding them). */
  onRow?: (row: CheckedRow) => void;
  /** Asked before each row: a promise while whoever onRow feeds has no room, waited for before the row is read. */
  pace?: () => Promise<void> | undefined;
  /** Each valid data row's number, as the import stores it, and its value (a reader of the numbers alone: no row made for it). */
  onNumber?: (number: string, place: RowPlace, value: ImportRow) => void;
  /** What the server shows of its reading: a cell it may take (unreadable-cells.ts) is sent as written, its row valid. */
  reading?: ServerReading;
}

/**
 * The columns of a file checkImportHeader accepted (or of a sheet's rows), as the import reads them
 * with `fields`: what its rows can send is known before any of them is read.
 */
export async function importColumns(source: string, file: string | Iterable<CsvItem>, fields: FieldIds | undefined): Promise<ColumnPlan> {
  for await (const header of typeof file === 'string' ? (await openCsv(file)).rows : file) return readHeader(source, header, fields).plan;
  throw notCsv(source, 'it is empty');
}

/** The first row of a file (of a sheet's rows too): exit 2 when there is none or it names no `number` column. */
export function checkHeaderRow(source: string, header: CsvItem | undefined): void {
  if (header === undefined) throw notCsv(source, 'it is empty');
  readHeader(source, header, undefined);
}

/**
 * Reads and checks the rows of a file checkImportHeader accepted, up to the first valid row
 * (`untilValid`) or all of them: every problem of every row is in the report. `signal` stops
 * the reading.
 */
export async function checkImportCsv(file: string, options: CheckOptions = {}): Promise<CsvReport> {
  return checkImportItems((await openCsv(file)).rows, { ...options, source: options.source ?? file });
}

/** Checks rows already read (a CSV's, or a sheet's as its CSV holds them), header first: see checkImportCsv. */
export async function checkImportItems(
  items: AsyncIterable<CsvItem> | Iterable<CsvItem>,
  options: CheckOptions & { source: string },
): Promise<CsvReport> {
  const report: CsvReport = {
    file: options.source,
    columns: [],
    rows: 0,
    valid_rows: 0,
    invalid_rows: 0,
    problems: new RowProblems(),
    unknown_columns: [],
    fields_checked: options.fields !== undefined,
    unchecked_columns: [],
  };
  let plan: ColumnPlan | undefined;
  const unreadable = new UnreadableTally();
  const refuse = (row: RowPlace & { cells?: string[] }, errors: FieldErrors) => {
    report.invalid_rows++;
    for (const [field, messages] of Object.entries(errors)) {
      for (const message of messages) report.problems.add({ row: row.row, line: row.line, field, message });
    }
    options.onRow?.({ row: row.row, line: row.line, cells: row.cells ?? [], errors });
  };

  let read = 0;
  for await (const row of items) {
    // Rows in memory (a sheet's) give no turn of the event loop of themselves (loop-turns.ts).
    await turnAfter(++read);
    const room = options.pace?.();
    if (room !== undefined) await room;
    // Ctrl-C after the upload: the reading stops too, so the process ends at once.
    options.signal?.throwIfAborted();
    if (plan === undefined) {
      ({ columns: report.columns, plan } = readHeader(report.file, row, options.fields));
      report.unknown_columns = unknownColumns(plan, options.fields);
      if (options.fields === undefined) report.unchecked_columns = plan.unknown.map(({ column }) => column);
      continue;
    }
    report.rows++;
    if (!hasCells(row)) {
      refuse(row, { [WHOLE_ROW]: [row.message] });
      continue;
    }
    // Only a refused row may wait for an answer: a million valid rows cost no promise each.
    const verdict = checkedRow(row, plan, options.reading);
    const checked = verdict instanceof Promise ? await verdict : verdict;
    if (checked.value === undefined) {
      refuse(row, checked.errors!);
      continue;
    }
    report.valid_rows++;
    if (checked.unreadable !== undefined) unreadable.add(rowName(row), checked.unreadable);
    options.onRow?.(checked);
    options.onNumber?.(String(checked.value.number), row, checked.value);
    if (options.untilValid) break;
  }
  const counts = unreadable.result();
  if (counts !== undefined) report.unreadable_cells = counts;
  return report;
}

/** A row the import would apply, as a plan reads it: its value and the columns it leaves empty (found when asked). */
class ValidRow implements CheckedRow {
  private empty: string[] | undefined;
  constructor(
    readonly row: number,
    readonly line: number,
    readonly cells: string[],
    readonly value: ImportRow,
    private readonly plan: ColumnPlan,
    readonly unreadable?: Record<string, UnreadableCell>,
  ) {}

  // A reader of the numbers alone (the rows naming one contact) does not pay for it.
  get emptied(): string[] {
    this.empty ??= emptiedKeys(this.cells, this.plan);
    return this.empty;
  }

  get written(): string {
    return this.cells[this.plan.contact.number ?? 0] ?? '';
  }
}

/**
 * One data row checked as checkImportItems checks it (`plan`: its header's columns, read with the
 * same fields; `reading`: as CheckOptions takes it), at once for a valid row. The server is asked
 * about its reading only for a row refused for nothing but cells it may take.
 */
export function checkedRow(
  row: (RowPlace & { cells: string[] }) | BeyondHeader,
  plan: ColumnPlan,
  reading?: ServerReading,
): CheckedRow | Promise<CheckedRow> {
  if ('columns' in row) return beyondHeaderVerdict(row, plan, reading);
  const input = readRow(row.cells, plan);
  const result = check(importRow, input);
  if (result.ok) return new ValidRow(row.row, row.line, row.cells, result.value, plan);
  const refused: CheckedRow = { row: row.row, line: row.line, cells: row.cells, errors: result.errors };
  if (reading === undefined) return refused;
  return withoutUnreadable(input, result.errors, reading).then((read) =>
    read === undefined ? refused : new ValidRow(row.row, row.line, row.cells, read.value, plan, read.cells),
  );
}

/** A row with values beyond the header's columns: checked on those columns, the rest sent as written, unless the server is wsm serve's. */
async function beyondHeaderVerdict(row: BeyondHeader, plan: ColumnPlan, reading?: ServerReading): Promise<CheckedRow> {
  const refused: CheckedRow = { row: row.row, line: row.line, cells: row.cells, errors: { [WHOLE_ROW]: [row.message] } };
  if (reading === undefined || (await reading.wsmRules())) return refused;
  const within = await checkedRow({ row: row.row, line: row.line, cells: row.cells.slice(0, row.columns) }, plan, reading);
  if (within.value === undefined) return { ...refused, errors: { ...refused.errors, ...within.errors } };
  const beyond = { [BEYOND_HEADER]: { cell: row.cells.slice(row.columns).join(','), why: row.message } };
  return new ValidRow(row.row, row.line, row.cells, within.value, plan, { ...within.unreadable, ...beyond });
}

function notCsv(file: string, why: string): RequestValidationError {
  return new RequestValidationError(`${file} is not a CSV file with a header row: ${why}`, {
    file: ['The file must be a UTF-8 CSV file whose header row has a number column.'],
  });
}
