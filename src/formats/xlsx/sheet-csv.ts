// A sheet of an .xlsx workbook as the CSV the API takes (RFC 4180, UTF-8): the CLI reads a
// spreadsheet, and every server, the published API's included, receives what it receives for a
// CSV. One record per sheet row (an empty row, or one not sent, is an empty line), so the CSV's row
// N is the sheet's row N for the local check and the server's errors alike. Cells are as the
// spreadsheet displays them (sheet-reader.ts), written as they are: no formula guard (the header
// is never the export's, see `columnsToSend`, so no reader takes a `'` off).
import { columnsToSend, csvField } from '../csv/cells.js';
import { cellName } from './cell-names.js';
import { type DigitsNotes, keepDigitsNote, noDigitsNotes } from './digits-notes.js';
import { openWorkbook, type SheetRow } from './sheet-reader.js';

/** A cell whose row is not sent: it holds an error (`#N/A`), not a value. */
interface CellProblem {
  row: number;
  /** `D17`. */
  cell: string;
  /** The column's header, when it has one. */
  column: string;
  /** The error it holds, `#N/A`. */
  error: string;
  message: string;
}

export interface SheetCsv {
  sheet: string;
  /** The sheet's header row number (1 unless rows above it are empty). */
  headerRow: number;
  /** Rows after the header holding values, sent or not. */
  rows: number;
  /** Rows not sent, each named by its error cells. */
  problems: CellProblem[];
  /** Cells holding a formula: their saved result is what is read. */
  formulas: { count: number; first?: string };
  /** Cells whose display drops digits they hold: read in full (digits-notes.ts). */
  digits: DigitsNotes;
}

/**
 * One record of the sheet as the CSV holds it: its sheet row, and its cells (the header's first),
 * or none for a row not sent (a cell holding an error). Empty rows make no record.
 */
export interface SheetRecord {
  row: number;
  cells?: string[];
}

const textOf = (row: SheetRow, width: number): string[] => {
  const cells = Array.from({ length: width }, () => '');
  for (const cell of row.cells) if (cell.column < width || cell.text !== '') cells[cell.column] = cell.text;
  return Array.from(cells, (text) => text ?? '');
};

/**
 * The sheet's records, given to `onRecord` one at a time, as the CSV writes them (the header
 * first; `forImport`: without the columns an import reads nothing from, the export's id and times,
 * so the header is never the export's). A file that is not a workbook, a damaged or hostile
 * one, or a sheet it lacks, is a WorkbookError naming the file (and the cell).
 */
export async function readSheetRecords(
  path: string,
  options: { sheet?: string; forImport?: boolean; onRecord(record: SheetRecord): void | Promise<void> },
): Promise<SheetCsv> {
  const workbook = await openWorkbook(path);
  const result: SheetCsv = {
    sheet: options.sheet ?? workbook.sheetNames[0] ?? '',
    headerRow: 0,
    rows: 0,
    problems: [],
    formulas: { count: 0 },
    digits: noDigitsNotes(),
  };
  let header: string[] | undefined;
  let keep: number[] = [];
  try {
    for await (const row of workbook.rows(options.sheet)) {
      for (const cell of row.cells) {
        if (cell.formula) {
          result.formulas.count++;
          result.formulas.first ??= cellName(cell.column, row.row);
        }
        if (cell.shown !== undefined)
          keepDigitsNote(result.digits, { row: row.row, cell: cellName(cell.column, row.row), shown: cell.shown, read: cell.text });
      }
      if (header === undefined) {
        header = textOf(row, Math.max(0, ...row.cells.map((c) => c.column + 1)));
        keep = options.forImport ? columnsToSend(header) : header.map((_, at) => at);
        result.headerRow = row.row;
        await options.onRecord({ row: row.row, cells: keep.map((at) => header![at]) });
        continue;
      }
      result.rows++;
      const errors = row.cells.filter((cell) => cell.error !== undefined);
      if (errors.length > 0) {
        for (const cell of errors) {
          result.problems.push({
            row: row.row,
            cell: cellName(cell.column, row.row),
            column: header[cell.column]?.trim() ?? '',
            error: cell.error!,
            message: `The cell holds the error ${cell.error}, not a value.`,
          });
        }
        await options.onRecord({ row: row.row });
        continue;
      }
      const cells = textOf(row, header.length);
      // Values past the header's columns go too: the reader names such a row, as for a CSV.
      await options.onRecord({ row: row.row, cells: [...keep.map((at) => cells[at]), ...cells.slice(header.length)] });
    }
  } finally {
    await workbook.close();
  }
  return result;
}

/**
 * Writes records as the CSV's lines: one record per sheet row (an empty row, or one not sent, is
 * an empty line), so the CSV's row N is the sheet's row N. Returns the row the next record is on.
 */
export function csvLines(record: SheetRecord, next: number): { text: string; next: number } {
  const gap = '\n'.repeat(Math.max(0, record.row - next));
  return { text: `${gap}${record.cells === undefined ? '' : record.cells.map(csvField).join(',')}\n`, next: record.row + 1 };
}
