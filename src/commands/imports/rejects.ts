// `--rejects FILE`: the rows of an import file that failed, locally or on the server, written back
// with the file's own header and cells (as the file holds them, the export's `'` left on) plus
// `import_error` and `import_line`, so that the operator fixes that file and imports it again.
// A row is written as it is read, so a file of millions of failed rows is never held: reading the
// rows and writing them are each the file format's, here CSV.
import { hasCells, headerName, openCsv } from '../../api/import-csv.js';
import type { ImportError } from '../../api/schemas/index.js';
import type { CsvReport } from '../../cli/csv-check.js';
import { batched } from '../../cli/batched-text.js';
import { openFileSink } from '../../cli/file-sink.js';

const REJECT_COLUMNS = ['import_error', 'import_line'] as const;

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

/** RFC 4180 with the file's own separator: a cell holding it, a quote or a line break is quoted. */
export function csvCell(cell: string, separator: string): string {
  return cell.includes(separator) || /["\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * Writes the failed rows of CSV `file` to `path` as the file is read, about 64 KiB at a time (never
 * the rows or the text whole), put in place once whole; the number of rows written.
 */
export async function writeCsvRejects(path: string, file: string, failed: FailedLines): Promise<number> {
  const csv = await openCsv(file, 'number', { asWritten: true });
  const separator = csv.format.separator;
  const line = (cells: string[]) => cells.map((cell) => csvCell(cell, separator)).join(separator) + '\n';
  const out = openFileSink(path);
  const text = batched((piece) => out.write(piece));
  let layout: ReturnType<typeof rejectsLayout> | undefined;
  let rows = 0;
  try {
    for await (const item of csv.rows) {
      // A row with values beyond the header is refused, and comes back with every one of them.
      const cells = hasCells(item) ? item.cells : [];
      if (layout === undefined) {
        layout = rejectsLayout(cells);
        text.write(line(layout.header));
        continue;
      }
      const error = failed.get(item.line);
      if (error === undefined) continue;
      text.write(line(layout.row(cells, error, item.line)));
      rows++;
    }
    if (layout === undefined) text.write(line(rejectsLayout([]).header));
    text.end();
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
  return rows;
}
