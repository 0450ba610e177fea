// The local check `wsm contacts import` runs before uploading (spec/cli.md "Requests"): the whole
// file must be text (a fatal decoder, never a sample) and a CSV with a `number` column; each row is
// held to the same `importRow` schema the server applies (the rules of `contacts create`), read the
// same way (same reader and column plan: headers trimmed and lowercased, first of a duplicate wins,
// empty cells absent, the export's `'` taken off formula-like values), so the warnings name the
// rows the server would skip.
import { open } from 'node:fs/promises';
import { check, importRow } from '../api/schemas/index.js';
// The server's own reader and column plan (pure modules: node file reads only, nothing of
// fastify or SQLite), so the rows, their line numbers and what counts as a row are the server's.
import { planColumns, readRow, type ColumnPlan } from '../api/import-columns.js';
import { findEncodingProblem, type EncodingProblem } from '../api/csv-encoding.js';
import { headerName, openCsv, type CsvFormat, type CsvItem } from '../api/import-csv.js';
import { LocalValidationError, UsageError } from './errors.js';

/** Problems kept for the report; the counts cover every row. */
const PROBLEMS_KEPT = 100;

export interface RowProblem {
  /** 1-based line where the row starts in the file (the header is line 1). */
  line: number;
  field: string;
  message: string;
}

export interface CsvReport {
  file: string;
  /** Header names as the server reads them (trimmed, lowercase). */
  columns: string[];
  rows: number;
  valid_rows: number;
  invalid_rows: number;
  /** The first problems, in file order. */
  problems: RowProblem[];
}

/** The workspace's contact fields by name, when known: their columns are checked as the server checks them. */
export type FieldIds = Map<string, number>;

/** The header row as the server reads it; throws LocalValidationError (exit 2) when it cannot start an import. */
function readHeader(file: string, row: CsvItem, fields: FieldIds | undefined): { columns: string[]; plan: ColumnPlan } {
  if (row.kind === 'error') throw notCsv(file, `line ${row.line}: ${row.message}`);
  const plan = planColumns(row.cells, fields);
  if (plan.contact.number === undefined) {
    throw new LocalValidationError(`${file} has no "number" column: the header row must name one`, {
      number: ['The header row must have a number column.'],
    });
  }
  return { columns: row.cells.map(headerName), plan };
}

/** Input wsm cannot decode, refused before anything is sent: where, what, and what to do. */
export function encodingRefusal(source: string, problem: EncodingProblem): LocalValidationError {
  return new LocalValidationError(`${source} ${problem.message}; nothing was sent. ${problem.fix}`);
}

/** How an input was read (formatNotes: a UTF-16 or semicolon-separated CSV), said under its name. */
export function formatNoticeLines(source: string, notes: string[]): string[] {
  return notes.map((note) => `${source}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
}

/**
 * Everything that stops an import (spec/cli.md: an unreadable file, no `number` column, not
 * text) is decided before anything is sent: the whole file is decoded, then its header read.
 * Throws LocalValidationError (exit 2); gives back how the file is read (encoding, separator).
 */
export async function checkImportHeader(file: string): Promise<CsvFormat> {
  await assertReadableFile(file);
  const problem = await findEncodingProblem(file);
  if (problem) {
    throw encodingRefusal(file, problem);
  }
  const csv = await openCsv(file);
  let header: CsvItem | undefined;
  for await (const row of csv.rows) {
    header = row;
    break;
  }
  if (header === undefined) throw notCsv(file, 'it is empty');
  readHeader(file, header, undefined);
  return csv.format;
}

/**
 * Reads and checks the rows of a file checkImportHeader accepted, up to `until` (a row count,
 * or the first valid row), or all. `signal` stops the reading.
 */
export async function checkImportCsv(file: string, options: { signal?: AbortSignal; fields?: FieldIds; untilValid?: boolean } = {}): Promise<CsvReport> {
  const report: CsvReport = { file, columns: [], rows: 0, valid_rows: 0, invalid_rows: 0, problems: [] };
  let plan: ColumnPlan | undefined;
  const addProblem = (line: number, field: string, message: string) => {
    if (report.problems.length < PROBLEMS_KEPT) report.problems.push({ line, field, message });
  };

  const csv = await openCsv(file);
  for await (const row of csv.rows) {
    // Ctrl-C after the upload: the reading stops too, so the process ends at once.
    options.signal?.throwIfAborted();
    if (plan === undefined) {
      ({ columns: report.columns, plan } = readHeader(file, row, options.fields));
      continue;
    }
    report.rows++;
    if (row.kind === 'error') {
      report.invalid_rows++;
      addProblem(row.line, 'row', row.message);
      continue;
    }
    const result = check(importRow, readRow(row.cells, plan));
    if (result.ok) {
      report.valid_rows++;
      if (options.untilValid) break;
      continue;
    }
    report.invalid_rows++;
    for (const [field, messages] of Object.entries(result.errors)) {
      for (const message of messages) addProblem(row.line, field, message);
    }
  }
  return report;
}

async function assertReadableFile(file: string): Promise<void> {
  try {
    const handle = await open(file, 'r');
    try {
      if (!(await handle.stat()).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    } finally {
      await handle.close();
    }
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    // One line: a field line under it would only say the same again.
    throw new UsageError(`cannot read ${file} (${reason})`);
  }
}

function notCsv(file: string, why: string): LocalValidationError {
  return new LocalValidationError(`${file} is not a CSV file with a header row: ${why}`, {
    file: ['The file must be a UTF-8 CSV file whose header row has a number column.'],
  });
}
