// What the local check of an import file (cli/csv-check.ts) says to the user: columns the import
// will not read, each invalid row named by its spreadsheet row (and line where they differ), the
// first rows listed and the rest counted, and --strict's refusal. The check itself is data; this
// is its rendering.
import type { Context } from '../../cli/context.js';
import { type CsvReport, type UnknownColumn, WHOLE_ROW } from '../../cli/csv-check.js';
import { RequestValidationError } from '../../cli/errors.js';
import type { Column } from '../../cli/columns.js';
import { countOf, countText, rowName } from '../../cli/text.js';
import { unreadableSentence } from '../contacts/plan-unshown.js';

/** Invalid rows named one by one on stderr; beyond them a count (-o json and --rejects give every one). */
const ROWS_LISTED = 20;

export const reportColumns: Column<CsvReport>[] = [
  { key: 'file', header: 'File' },
  { key: 'columns', header: 'Columns', get: (r) => r.columns.join(', ') },
  { key: 'unknown_columns', header: 'Not imported', get: (r) => r.unknown_columns.map((c) => c.column).join(', ') },
  { key: 'rows', header: 'Rows' },
  { key: 'valid_rows', header: 'Valid' },
  { key: 'invalid_rows', header: 'Invalid' },
];

const didYouMean = (names: string[]) =>
  names.length === 0 ? '' : ` (did you mean ${names.length === 1 ? `"${names[0]}"` : `one of ${names.map((n) => `"${n}"`).join(', ')}`}?)`;

/** Why a column is not imported, with the names close to it. */
const columnReason = (column: UnknownColumn) =>
  `Column ${column.position} is neither a contact attribute nor a contact field of this workspace${didYouMean(column.did_you_mean)}.`;

/** Names said one by one; beyond them one line counts them (a sheet may have 16,384 columns). */
const NAMES_LISTED = 5;

/** `"a", "b", "c"`, or the first few and how many more. */
export function quotedNames(names: string[]): string {
  const shown = names.slice(0, NAMES_LISTED).map((name) => `"${name}"`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${countText(more)} more` : shown.join(', ');
}

/** Each column the import will not read, a warning (many: one line), before anything is sent; columns that could not be checked, said once. */
export function warnColumns(ctx: Context, report: CsvReport): void {
  if (report.unchecked_columns.length > 0) {
    ctx.output.warn(
      `${report.file}: ${quotedNames(report.unchecked_columns)} ${report.unchecked_columns.length === 1 ? 'is no contact attribute' : 'are no contact attributes'}; whether the workspace has such fields is not known (its fields could not be read)`,
    );
  }
  if (report.unknown_columns.length > NAMES_LISTED) {
    ctx.output.warn(
      `${report.file}: ${countText(report.unknown_columns.length)} columns will not be imported (${quotedNames(report.unknown_columns.map((c) => c.column))}): they are neither contact attributes nor contact fields of this workspace (-o json lists every one)`,
    );
    return;
  }
  for (const column of report.unknown_columns) {
    ctx.output.warn(
      `${report.file}: column "${column.column}" will not be imported: it is neither a contact attribute nor a contact field of this workspace${didYouMean(column.did_you_mean)}`,
    );
  }
}

/** The problems of the first ROWS_LISTED invalid rows, keyed by row and field; the number of invalid rows left out. */
function listedProblems(report: CsvReport): { listed: Array<{ row: string; field: string; message: string }>; hidden: number } {
  const rows = new Set<number>();
  const listed: Array<{ row: string; field: string; message: string }> = [];
  for (const problem of report.problems) {
    if (!rows.has(problem.line)) {
      if (rows.size === ROWS_LISTED) break;
      rows.add(problem.line);
    }
    listed.push({ row: rowName(problem), field: problem.field, message: problem.message });
  }
  return { listed, hidden: report.invalid_rows - rows.size };
}

/** `row 7 email`, or `row 7` for a row that could not be read at all. */
const problemKey = (row: string, field: string) => (field === WHOLE_ROW ? row : `${row} ${field}`);

const moreRows = (hidden: number) => `${countOf(hidden, 'more invalid row')} not listed (-o json or --rejects FILE gives every one)`;

/** --strict: an invalid row or a column not imported is exit 2 with each listed. Otherwise each invalid row is a warning. */
export function refuseOrWarn(ctx: Context, flags: { file: string; strict: boolean }, report: CsvReport): void {
  const { listed, hidden } = listedProblems(report);
  const columns = report.unknown_columns.length;
  if (flags.strict && (report.invalid_rows > 0 || columns > 0)) {
    const errors: Record<string, string[]> = {};
    for (const column of report.unknown_columns.slice(0, NAMES_LISTED)) errors[`column "${column.column}"`] = [columnReason(column)];
    if (columns > NAMES_LISTED)
      errors['more columns'] = [`${countOf(columns - NAMES_LISTED, 'more column')} not listed (-o json lists every one)`];
    for (const { row, field, message } of listed) (errors[problemKey(row, field)] ??= []).push(message);
    if (hidden > 0) errors['more'] = [moreRows(hidden)];
    const rows =
      report.invalid_rows > 0
        ? `${countText(report.invalid_rows)} of ${countOf(report.rows, 'row')} ${report.invalid_rows === 1 ? 'is' : 'are'} invalid`
        : '';
    const named = columns > 0 ? `${countOf(columns, 'column')} would not be imported` : '';
    throw new RequestValidationError(`${flags.file}: ${[rows, named].filter(Boolean).join(' and ')} (--strict): nothing was sent`, errors);
  }
  for (const { row, field, message } of listed)
    ctx.output.warn(`${flags.file} ${field === WHOLE_ROW ? row : `${row}: ${field}`}: ${message}`);
  if (hidden > 0) ctx.output.warn(moreRows(hidden));
  warnUnreadable(ctx, flags.file, report);
}

/** The groups or field cells the check could not read where the server's contacts do not show them: sent as written, one line a column. */
function warnUnreadable(ctx: Context, file: string, report: CsvReport): void {
  for (const [key, count] of Object.entries(report.unreadable_cells ?? {})) ctx.output.warn(`${file}: ${unreadableSentence(key, count)}`);
}

/** No row of the file would be imported: exit 2, the first problems listed, nothing sent. */
export function refuseNoValidRow(file: string, report: CsvReport): never {
  if (report.rows === 0) throw new RequestValidationError(`${file} has no rows after its header: nothing was sent`);
  const { listed, hidden } = listedProblems(report);
  const errors: Record<string, string[]> = {};
  for (const { row, field, message } of listed) (errors[problemKey(row, field)] ??= []).push(message);
  if (hidden > 0) errors['more'] = [moreRows(hidden)];
  throw new RequestValidationError(
    `${file} has no valid row (${report.rows === 1 ? 'its one row is' : `all ${countOf(report.rows, 'row')} are`} invalid): nothing was sent`,
    errors,
  );
}

/** The cells (`B4`) holding errors (`#N/A`) that keep each of a sheet's rows from being sent, by sheet row. */
export type NotSentCells = Map<number, Array<{ cell: string; error: string }>>;

const notSentBecause = (cells: Array<{ cell: string; error: string }>) =>
  cells.length === 1
    ? `cell ${cells[0].cell} holds an error (${cells[0].error})`
    : `cells ${cells.map((c) => c.cell).join(', ')} hold errors (${[...new Set(cells.map((c) => c.error))].join(', ')})`;

/**
 * Once the file is sent: a sheet's rows left out of what was sent (cells holding errors) said as
 * not sent, the first listed; then the invalid rows that were sent, which the server skips.
 */
export function warnWhatIsSkipped(ctx: Context, file: string, report: CsvReport, notSent: NotSentCells = new Map()): void {
  const rows = [...notSent];
  for (const [row, cells] of rows.slice(0, ROWS_LISTED)) ctx.output.warn(`${file} row ${row} was not sent: ${notSentBecause(cells)}`);
  if (rows.length > ROWS_LISTED) ctx.output.warn(`${countOf(rows.length - ROWS_LISTED, 'more row')} not sent (cells holding errors)`);
  const sent = report.invalid_rows - rows.length;
  if (sent > 0)
    ctx.output.warn(
      `sent anyway: the server skips ${sent === 1 ? 'the invalid row' : `the ${countOf(sent, 'invalid row')}`} (use --strict to refuse the file)`,
    );
}
