// `--rejects FILE`: the rows of an import file that failed, locally or on the server, written back
// with the file's own header and cells (as the file holds them, the export's `'` left on) plus
// `import_error` and `import_line`, so that the operator fixes that file and imports it again.
// Between reading and writing is a table (header, rows of cells): reading the rows and writing
// them are each the file format's, here CSV.
import { headerName, openCsv } from '../../api/import-csv.js';
import type { ImportError } from '../../api/schemas/index.js';
import type { CsvReport } from '../../cli/csv-check.js';
import { replaceFile } from '../../cli/replace-file.js';

const REJECT_COLUMNS = ['import_error', 'import_line'] as const;

interface RejectedRow {
  /** The line of the import file the row starts on. */
  line: number;
  /** Its cells as the file holds them; none for a row that could not be read as CSV. */
  cells: string[];
  error: string;
}

interface RejectsTable {
  header: string[];
  rows: RejectedRow[];
}

/**
 * Where a rejects file puts each row's reason and line: in the input's own `import_error` and
 * `import_line` columns when it has them (a rejects file imported again; the import skips them),
 * overwritten with this run's, else in the two columns added after its header.
 */
export function rejectsLayout(header: string[]): { header: string[]; row: (cells: string[], error: string, line: number) => string[] } {
  const width = header.length;
  const added = REJECT_COLUMNS.filter((column) => !header.some((cell) => headerName(cell) === column));
  const full = [...header, ...added];
  const [errorAt, lineAt] = REJECT_COLUMNS.map((column) => full.findIndex((cell) => headerName(cell) === column));
  return {
    header: full,
    row: (cells, error, line) => {
      const row = [...cells.slice(0, width), ...Array<string>(Math.max(0, width - cells.length)).fill('')];
      row.push(...added.map(() => ''));
      row[errorAt!] = error;
      row[lineAt!] = String(line);
      return cells.length > width ? [...row, ...cells.slice(width)] : row;
    },
  };
}

/** Why each failed row failed, by the line it starts on (a sheet's: by its row); a Map is one. */
export interface FailedLines {
  get(line: number): string | undefined;
}

/** Each line's reason from the first of `sources` that has one. */
export function firstKnown(...sources: FailedLines[]): FailedLines {
  return {
    get(line) {
      for (const source of sources) {
        const reason = source.get(line);
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
  };
}

const add = (lines: Map<number, string>, line: number, message: string) =>
  lines.set(line, lines.has(line) ? `${lines.get(line)} ${message}` : message);

/** The rows the local check found invalid: its messages, joined as the server joins them, read from the report's problems (never copied). */
export function locallyFailed(report: CsvReport): FailedLines {
  return { get: (line) => report.problems.messagesAt(line) };
}

/**
 * The rows the server's errors say were not imported (notes, such as a group created, are not rows
 * that failed), by the line each starts on, or by its row (a sheet's, whose CSV has a record a row).
 */
export function serverFailed(errors: ImportError[], by: 'line' | 'row' = 'line'): Map<number, string> {
  const lines = new Map<number, string>();
  for (const error of errors) if (error.failed && error.row > 1) add(lines, by === 'line' ? error.line : error.row, error.message);
  return lines;
}

/** The header and the failed rows of CSV `file`, cells as the file holds them. */
async function rejectedCsvRows(file: string, failed: FailedLines): Promise<{ table: RejectsTable; separator: string }> {
  const csv = await openCsv(file, 'number', { asWritten: true });
  const table: RejectsTable = { header: [], rows: [] };
  let header = true;
  for await (const item of csv.rows) {
    if (header) {
      table.header = item.kind === 'record' ? item.cells : [];
      header = false;
      continue;
    }
    const error = failed.get(item.line);
    if (error !== undefined) table.rows.push({ line: item.line, cells: item.kind === 'record' ? item.cells : [], error });
  }
  return { table, separator: csv.format.separator };
}

/** RFC 4180 with the file's own separator: a cell holding it, a quote or a line break is quoted. */
export function csvCell(cell: string, separator: string): string {
  return cell.includes(separator) || /["\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** The table as CSV text: the header, then each row with its error and line (rejectsLayout). */
function rejectsCsv(table: RejectsTable, separator = ','): string {
  const layout = rejectsLayout(table.header);
  const line = (cells: string[]) => cells.map((cell) => csvCell(cell, separator)).join(separator) + '\n';
  let text = line(layout.header);
  for (const row of table.rows) text += line(layout.row(row.cells, row.error, row.line));
  return text;
}

/** Writes the failed rows of CSV `file` to `path` (atomically); the number of rows written. */
export async function writeCsvRejects(path: string, file: string, failed: FailedLines): Promise<number> {
  const { table, separator } = await rejectedCsvRows(file, failed);
  await replaceFile(path, rejectsCsv(table, separator));
  return table.rows.length;
}
