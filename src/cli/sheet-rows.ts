// A sheet's rows as a CSV's reader gives them (api/import-csv.ts's rowMaker), each named by its
// sheet row: what every verb reading an .xlsx takes in (contacts import and imports create,
// contacts update|delete --from). The sheet is never written out as CSV text to be parsed back:
// its cells are the cells, whatever separators or line breaks they hold. Loaded for an .xlsx only.
import { type CsvItem, rowMaker } from '../api/import-csv.js';
import { readSheetRecords, type SheetCsv, type SheetRecord } from '../formats/xlsx/sheet-csv.js';

export interface SheetRows {
  /** What the reading found: the sheet's name, formulas, cells read in full, cells holding errors. */
  read: SheetCsv;
  /** The rows, header first, as a CSV reader gives them (an empty row makes none); line and row are the sheet row. */
  items: CsvItem[];
}

/**
 * Reads the sheet's rows (`forImport`: without the export's columns an import skips). `onRecord`
 * sees every record as read, rows not sent (a cell holding an error) too.
 */
export async function readSheetRows(
  path: string,
  options: { sheet?: string; forImport?: boolean; onRecord?(record: SheetRecord): void } = {},
): Promise<SheetRows> {
  const items: CsvItem[] = [];
  const itemOf = rowMaker(false);
  const read = await readSheetRecords(path, {
    sheet: options.sheet,
    forImport: options.forImport,
    onRecord(record) {
      options.onRecord?.(record);
      if (record.cells === undefined) return;
      const item = itemOf({ kind: 'record', cells: record.cells, row: record.row, line: record.row });
      if (item !== undefined) items.push(item);
    },
  });
  return { read, items };
}
