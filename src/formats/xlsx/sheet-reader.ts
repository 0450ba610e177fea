// The rows of one sheet of an .xlsx workbook, each cell as the spreadsheet displays it
// (number-format.ts), read as the sheet is inflated (zip-reader.ts) and parsed (xml-parts.ts):
// shared strings and styles first, then the sheet a chunk at a time. Each row comes with its sheet
// row number and each cell with its reference (`D17`), so messages name what the operator sees.
// Whatever the file holds, the reader ends in rows or in a WorkbookError naming the file and,
// where there is one, the cell: bounds (limits.ts) are checked as the XML comes.
import { WorkbookError } from '../workbook-error.js';
import { sniffWorkbook } from './file-kind.js';
import { SheetParser } from './sheet-parser.js';
import { readSharedStrings, readStyles, readWorkbookPart, type WorkbookPart } from './workbook-parts.js';
import { parsePart, XmlError } from './xml-parts.js';
import { openZip, ZipError, type ZipArchive } from './zip-reader.js';

export interface SheetCell {
  /** 0-based column. */
  column: number;
  /** What the spreadsheet shows; '' for an empty cell. */
  text: string;
  /** `#N/A`, `#REF!`, ...: the cell holds an error, not a value. */
  error?: string;
  /** The cell holds a formula: `text` is the result the spreadsheet saved with it. */
  formula?: boolean;
  /** What the spreadsheet shows where that drops digits the number holds (`4.48E+11`): `text` is then the number in full. */
  shown?: string;
}

export interface SheetRow {
  /** 1-based row number in the sheet. */
  row: number;
  cells: SheetCell[];
}

export interface Workbook {
  sheetNames: string[];
  /** The rows of the named sheet (the first when none is named), in order; empty rows are left out. */
  rows(sheet?: string): AsyncGenerator<SheetRow>;
  close(): Promise<void>;
}

/** What the reader's own errors become: the file named, the place where the parser was. */
function asWorkbookError(path: string, error: unknown, where?: string): unknown {
  if (error instanceof ZipError) return new WorkbookError(path, error.message);
  if (error instanceof XmlError) return new WorkbookError(path, error.message, where);
  return error;
}

export async function openWorkbook(path: string): Promise<Workbook> {
  await sniffWorkbook(path);
  let zip: ZipArchive;
  try {
    zip = await openZip(path);
  } catch (error) {
    throw asWorkbookError(path, error);
  }
  try {
    return await workbookOf(zip, path);
  } catch (error) {
    await zip.close();
    throw asWorkbookError(path, error);
  }
}

async function workbookOf(zip: ZipArchive, path: string): Promise<Workbook> {
  if (!zip.has('xl/workbook.xml')) {
    const ods = zip.has('content.xml') ? ' (it looks like an OpenDocument spreadsheet: save it as .xlsx)' : '';
    throw new WorkbookError(path, `it is not an .xlsx workbook: it has no xl/workbook.xml${ods}`);
  }
  const book: WorkbookPart = await readWorkbookPart(zip);
  let shared: string[] | undefined;
  let styles: string[] | undefined;

  async function* rows(name?: string): AsyncGenerator<SheetRow> {
    const { sheets } = book;
    const sheet =
      name === undefined
        ? sheets[0]
        : (sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === name.toLowerCase()));
    if (sheet === undefined) {
      throw new WorkbookError(
        path,
        name === undefined
          ? 'it has no sheet'
          : `it has no sheet named "${name}"; its sheets: ${sheets.map((s) => `"${s.name}"`).join(', ')}`,
      );
    }
    if (sheet.path === undefined || !zip.has(sheet.path))
      throw new WorkbookError(path, `the sheet "${sheet.name}" is not in the file (is it whole?)`);
    const parser = new SheetParser({ date1904: book.date1904 });
    try {
      shared ??= await readSharedStrings(zip, book.sharedPath);
      styles ??= await readStyles(zip, book.stylesPath);
      parser.use(shared, styles);
      yield* parsePart(zip, sheet.path, parser, () => parser.drain());
    } catch (error) {
      const place = parser.place();
      throw asWorkbookError(path, error, place === undefined ? undefined : `${place} of sheet "${sheet.name}"`);
    }
  }
  return { sheetNames: book.sheets.map((s) => s.name), rows, close: () => zip.close() };
}
