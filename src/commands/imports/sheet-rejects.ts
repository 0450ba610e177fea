// `--rejects FILE.xlsx` for an .xlsx input: the rows of the sheet that failed, each cell as the
// spreadsheet displays it (what was sent), under the sheet's header, plus `import_error` and
// `import_line` (the sheet row; in the sheet's own such columns when it has them), written as a workbook whose cells are text; the file is put in
// place only once whole. Fix the rows there and import that file again.
import { openFileSink } from '../../cli/file-sink.js';
import { openWorkbook } from '../../formats/xlsx/sheet-reader.js';
import { writeXlsx } from '../../formats/xlsx/sheet-writer.js';
import { type FailedLines, rejectsLayout } from './rejects.js';

/** The index of the last cell holding a value, -1 when none does. */
const lastValue = (cells: string[]) => cells.findLastIndex((cell) => cell !== '');

/** Writes the rows of `file`'s sheet named in `failed` (by sheet row) to `path`; the number of rows written. */
export async function writeSheetRejects(path: string, file: string, sheet: string | undefined, failed: FailedLines): Promise<number> {
  const workbook = await openWorkbook(file);
  const failedRows: Array<{ row: number; cells: string[] }> = [];
  let header: string[] | undefined;
  try {
    for await (const row of workbook.rows(sheet)) {
      const width = Math.max(header?.length ?? 0, ...row.cells.map((cell) => cell.column + 1));
      const cells = Array.from({ length: width }, () => '');
      for (const cell of row.cells) cells[cell.column] = cell.error ?? cell.text;
      if (header === undefined) header = cells;
      // Values past the header's columns come back too, as a CSV's do (rejectsLayout puts them last).
      else if (failed.get(row.row) !== undefined)
        failedRows.push({ row: row.row, cells: cells.slice(0, Math.max(header.length, lastValue(cells) + 1)) });
    }
  } finally {
    await workbook.close();
  }
  const layout = rejectsLayout(header ?? []);
  const rows = failedRows.map(({ row, cells }) => layout.row(cells, failed.get(row)!, row));
  const out = openFileSink(path);
  try {
    async function* batches() {
      yield rows;
    }
    await writeXlsx(
      { write: async (bytes) => out.write(bytes) },
      {
        sheetName: sheet ?? workbook.sheetNames[0] ?? 'Rejects',
        header: layout.header,
        rows: batches(),
        sample: rows.slice(0, 100),
      },
    );
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
  return rows.length;
}
