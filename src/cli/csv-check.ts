// The local check `wsm contacts import` runs before uploading (spec/cli.md "Requests"): the file
// must be readable CSV with a `number` column; each row is held to the same `importRow` schema the
// server applies, read the same way (same reader and column plan: headers trimmed and lowercased,
// first of a duplicate wins, empty cells absent, the export's `'` taken off formula-like values),
// so the warnings name the rows the server would skip.
import { open } from 'node:fs/promises';
import { check, importRow } from '../api/schemas/index.js';
// The server's own reader and column plan (pure modules: node file reads only, nothing of
// fastify or SQLite), so the rows, their line numbers and what counts as a row are the server's.
import { planColumns, readRow, type ColumnPlan } from '../api/import-columns.js';
import { headerName, looksLikeImportCsv, readCsvRows, type CsvItem } from '../api/import-csv.js';
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

/** The header row as the server reads it; throws LocalValidationError (exit 2) when it cannot start an import. */
function readHeader(file: string, row: CsvItem): { columns: string[]; plan: ColumnPlan } {
  if (row.kind === 'error') throw notCsv(file, `line ${row.line}: ${row.message}`);
  // Contact fields are the server's to know: their columns are left to it.
  const plan = planColumns(row.cells);
  if (plan.contact.number === undefined) {
    throw new LocalValidationError(`${file} has no "number" column: the header row must name one`, {
      number: ['The header row must have a number column.'],
    });
  }
  return { columns: row.cells.map(headerName), plan };
}

/**
 * Everything that stops an import (spec/cli.md: an unreadable file, no `number` column, not
 * UTF-8 CSV) is decided by the header and the start of the file: this reads only those, so
 * the caller knows before sending anything. Throws LocalValidationError (exit 2).
 */
export async function checkImportHeader(file: string): Promise<void> {
  await assertReadableFile(file);
  let header: CsvItem | undefined;
  for await (const row of readCsvRows(file)) {
    header = row;
    break;
  }
  if (header === undefined) throw notCsv(file, 'it is empty');
  readHeader(file, header);
  // The server's own upload check (UTF-8, no NUL bytes): what it would refuse, we refuse first.
  if (!(await looksLikeImportCsv(file))) throw notCsv(file, 'it is not UTF-8 text');
}

/**
 * Reads and checks the whole file: the header as checkImportHeader does, then every row.
 * Throws LocalValidationError (exit 2) when the file cannot be imported; `signal` stops the reading.
 */
export async function checkImportCsv(file: string, signal?: AbortSignal): Promise<CsvReport> {
  await checkImportHeader(file);
  const report: CsvReport = { file, columns: [], rows: 0, valid_rows: 0, invalid_rows: 0, problems: [] };
  let plan: ColumnPlan | undefined;
  const addProblem = (line: number, field: string, message: string) => {
    if (report.problems.length < PROBLEMS_KEPT) report.problems.push({ line, field, message });
  };

  for await (const row of readCsvRows(file)) {
    // Ctrl-C after the upload: the reading stops too, so the process ends at once.
    signal?.throwIfAborted();
    if (plan === undefined) {
      ({ columns: report.columns, plan } = readHeader(file, row));
      continue;
    }
    report.rows++;
    if (row.kind === 'error') {
      report.invalid_rows++;
      addProblem(row.line, 'row', row.message);
      continue;
    }
    const result = check(importRow, readRow(row.cells, plan).input);
    if (result.ok) {
      report.valid_rows++;
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
