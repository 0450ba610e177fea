/**
 * The rows of a contact CSV (decisions.md §3, §8): import files, read the same way by the server's
 * worker and the CLI's check, and the files of `contacts update|delete --from`. Text comes from
 * formats/csv/encoding.ts (UTF-8 or UTF-16 with its BOM, decoded fatally) and records from formats/csv/reader.ts
 * (RFC 4180: a quoted value may hold line breaks). On top of the records:
 *
 * - The separator is the comma, unless the header row names the column the file needs (`number`,
 *   or `id` for `--from`) only when split on a semicolon or a tab (Excel in most of Europe writes
 *   `;`). A file read so is named (formatNotes), never read so silently.
 * - A record whose values are all blank is not a row (spreadsheets end files with `,,,` lines).
 * - A row with more non-empty values than the header has columns is an error (an unquoted comma
 *   shifts every value after it).
 * - A file whose header is the export's (formats/csv/cells.ts isExportHeader) gets each cell back as
 *   `contacts export` was given it: the `'` the export puts before a formula-like value is taken
 *   off here, so every reader gets the same value, and formatNotes says so. Any other file is
 *   read as written: its `'` is its own.
 */
import { isExportHeader, restoreFormula } from '../formats/csv/cells.js';
import { CsvEncodingError, decodedChunks, ENCODING_NAMES, type TextEncoding } from '../formats/csv/encoding.js';
import { CsvTokenizer, tokenizeCsv, type CsvToken } from '../formats/csv/reader.js';

/**
 * A row with more values than the header has columns: an error to the import, its cells kept for
 * a reader that may plan it on the header's columns (a server whose reading is not known).
 */
export interface BeyondHeader {
  kind: 'error';
  line: number;
  row: number;
  message: string;
  cells: string[];
  /** How many columns the header has. */
  columns: number;
}

/** One row of the file in order: a parsed record or a row that cannot be read. */
export type CsvItem = CsvToken | BeyondHeader;

/** Whether an item is a row with values beyond the header's columns (its cells kept). */
const isBeyondHeader = (item: CsvItem): item is BeyondHeader => item.kind === 'error' && 'cells' in item;

/** A row whose cells were read: a record, or one with values beyond the header's columns. */
export type CellsRow = Extract<CsvToken, { kind: 'record' }> | BeyondHeader;

/**
 * Whether an item's cells were read, so that a reader may plan it: a row with values beyond the
 * header is planned on the header's columns where the server may take it (csv-check.ts checkedRow),
 * and every reader that looks at a row's cells for the plan looks at its cells too.
 */
export const hasCells = (item: CsvItem): item is CellsRow => item.kind === 'record' || isBeyondHeader(item);

export interface CsvFormat {
  encoding: TextEncoding;
  separator: string;
  /** The header is `contacts export`'s: a `'` before = + - @ is its guard, taken off. Any other file is read as written. */
  wsmExport: boolean;
}

const FILE_NOT_CSV = 'The file must be a UTF-8 CSV file whose header row has a number column.';

const SEPARATORS = [',', ';', '\t'];
const SEPARATOR_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };
/** How far into the file the header row is looked for. */
const HEADER_CHARS = 64 * 1024;

/** Header names as matched against columns and contact fields: trimmed, lowercase. */
export const headerName = (cell: string) => cell.trim().toLowerCase();

/** The first line of the text (the header row), as far as it is known. */
const firstLineOf = (text: string) => {
  const end = text.search(/[\r\n]/);
  return end < 0 ? text : text.slice(0, end);
};

/** The header's cells when `separator` splits `line` into a header naming `column`. */
function namesColumn(line: string, separator: string, column: string): boolean {
  const [first] = tokenizeCsv(line, separator);
  return first?.kind === 'record' && first.cells.some((cell) => headerName(cell) === column);
}

/** Whether the header row, split on `separator`, is the export's (isExportHeader). */
function exportHeader(text: string, separator: string): boolean {
  const [first] = tokenizeCsv(firstLineOf(text.slice(0, HEADER_CHARS)), separator);
  return first?.kind === 'record' && isExportHeader(first.cells);
}

/** The comma, unless only a semicolon or a tab splits the header row into one naming `column`. */
function separatorFor(text: string, column: string): string {
  const line = firstLineOf(text.slice(0, HEADER_CHARS));
  return SEPARATORS.find((separator) => namesColumn(line, separator, column)) ?? ',';
}

/** What is said about a file read other than as UTF-8 and comma-separated: each a sentence. */
export function formatNotes(format: CsvFormat): string[] {
  const notes: string[] = [];
  if (format.encoding !== 'utf-8') notes.push(`The file is read as ${ENCODING_NAMES[format.encoding]} text (its byte order mark says so).`);
  if (format.separator !== ',')
    notes.push(
      `The file is read as ${SEPARATOR_NAMES[format.separator]}-separated: its header row splits on ${format.separator === '\t' ? 'tabs' : `"${format.separator}"`}.`,
    );
  if (format.wsmExport)
    notes.push(
      "It is read as a `wsm contacts export` file (its header is the export's): the ' the export puts before a value starting with = + - @ is taken off.",
    );
  return notes;
}

const isBlank = (cell: string) => cell.trim() === '';

/**
 * Turns records into rows, in order: the item a token makes, undefined for a record that is not a
 * row. `guarded`: the file is an export (CsvFormat.wsmExport), whose `'` before = + - @ is taken
 * off; otherwise, and for a file written back as it was read (the rejects), cells are as written.
 */
export function rowMaker(guarded: boolean): (token: CsvToken) => CsvItem | undefined {
  let columns: number | undefined;
  return (token) => {
    if (token.kind === 'error') return token;
    const { cells } = token;
    // A row of empty cells (spreadsheet exports end with them) is not a row, like a blank line.
    if (cells.every(isBlank)) return undefined;
    if (columns === undefined) columns = cells.length;
    else if (cells.length > columns && !cells.slice(columns).every(isBlank)) {
      const values = cells.findLastIndex((cell) => !isBlank(cell)) + 1;
      return {
        kind: 'error',
        line: token.line,
        row: token.row,
        message: `The row has ${values} values but the header has ${columns} columns.`,
        cells: guarded ? cells.map(restoreFormula) : cells,
        columns,
      };
    }
    if (!guarded) return token;
    // In place: a million rows need no second array each.
    for (let i = 0; i < cells.length; i++) cells[i] = restoreFormula(cells[i]);
    return token;
  };
}

export interface CsvFile {
  format: CsvFormat;
  /** Every row, header first, with its line; rows that cannot be read come as `error` items in their place. */
  rows: AsyncGenerator<CsvItem>;
  /** The same rows, as many at a time as a chunk of the file holds (no promise a row: a million rows read faster). */
  batches: AsyncGenerator<CsvItem[]>;
  /** Closes the file when the rows are not read to the end (reading them to the end closes it). */
  close(): Promise<void>;
}

/**
 * Opens a CSV file whose header names `column`: its format is known from the first chunk, its
 * rows come as they are read. A byte that is not text throws CsvEncodingError (formats/csv/encoding.ts).
 * `asWritten`: see rowMaker.
 */
export async function openCsv(path: string, column = 'number', options: { asWritten?: boolean } = {}): Promise<CsvFile> {
  const chunks = decodedChunks(path);
  let head = '';
  let encoding: TextEncoding = 'utf-8';
  let ended = false;
  // Enough text to hold the header row.
  while (!ended && !/[\r\n]/.test(head) && head.length < HEADER_CHARS) {
    const next = await chunks.next();
    if (next.done) break;
    ({ encoding, end: ended } = next.value);
    head += next.value.text;
  }
  const separator = separatorFor(head, column);
  const format: CsvFormat = { encoding, separator, wsmExport: exportHeader(head, separator) };
  async function* batches(): AsyncGenerator<CsvItem[]> {
    const tokenizer = new CsvTokenizer(format.separator);
    const rowOf = rowMaker(format.wsmExport && options.asWritten !== true);
    const rowsOf = (text: string, end: boolean): CsvItem[] => {
      const tokens: CsvToken[] = [];
      tokenizer.push(text, end, tokens);
      const items: CsvItem[] = [];
      for (const token of tokens) {
        const item = rowOf(token);
        if (item) items.push(item);
      }
      return items;
    };
    try {
      yield rowsOf(head, ended);
      while (!ended) {
        const next = await chunks.next();
        if (next.done) break;
        ended = next.value.end;
        yield rowsOf(next.value.text, ended);
      }
    } finally {
      await chunks.return(undefined);
    }
  }
  const batched = batches();
  async function* rows(): AsyncGenerator<CsvItem> {
    for await (const batch of batched) yield* batch;
  }
  return {
    format,
    rows: rows(),
    batches: batched,
    close: async () => {
      await batched.return([]);
      await chunks.return(undefined);
    },
  };
}

/** Every row of the file, header first (see openCsv). */
export async function* readCsvRows(path: string, column = 'number'): AsyncGenerator<CsvItem> {
  yield* (await openCsv(path, column)).rows;
}

/** The rows of CSV text (see openCsv); a final line end makes no empty row. */
export function csvTextRows(text: string, column = 'number', encoding: TextEncoding = 'utf-8'): { format: CsvFormat; items: CsvItem[] } {
  const clean = text.replace(/^\uFEFF/, '');
  const separator = separatorFor(clean, column);
  const format: CsvFormat = { encoding, separator, wsmExport: exportHeader(clean, separator) };
  const rowOf = rowMaker(format.wsmExport);
  const items: CsvItem[] = [];
  for (const token of tokenizeCsv(clean, format.separator)) {
    const item = rowOf(token);
    if (item) items.push(item);
  }
  return { format, items };
}

/**
 * Whether a stored upload can start an import: the whole file is text (checked with a fatal
 * decoder, never a sample), and its header row names `number`. The reason when it cannot; when
 * it can, its rows after the header as countDataRows counts them. One reading of the file does
 * both: the rows are counted as the text is checked, so that the import reads it only once more.
 */
export async function checkImportFile(
  path: string,
): Promise<{ ok: true; format: CsvFormat; dataRows: number } | { ok: false; message: string }> {
  let header: CsvItem | undefined;
  let rows = 0;
  let format: CsvFormat;
  try {
    const csv = await openCsv(path);
    format = csv.format;
    for await (const batch of csv.batches) {
      header ??= batch[0];
      rows += batch.length;
    }
  } catch (error) {
    if (!(error instanceof CsvEncodingError)) throw error;
    // The whole file's text first: a header that reads is no use if a later line does not.
    return { ok: false, message: `The file is not text the import can read: ${error.problem.message}. ${error.problem.fix}` };
  }
  if (header === undefined) return { ok: false, message: 'The file is empty: it needs a header row with a number column.' };
  if (header.kind === 'error') return { ok: false, message: `The header row cannot be read: ${header.message}` };
  if (!header.cells.some((cell) => headerName(cell) === 'number')) return { ok: false, message: FILE_NOT_CSV };
  return { ok: true, format, dataRows: rows - 1 };
}

/** The number of rows `readCsvRows` yields after the header (records and error items). */
export async function countDataRows(path: string): Promise<number> {
  let rows = 0;
  for await (const batch of (await openCsv(path)).batches) rows += batch.length;
  return Math.max(0, rows - 1); // the header is not a data row
}
