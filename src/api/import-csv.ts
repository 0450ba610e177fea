/**
 * Reading import files (decisions.md §3 and §7: CSV, UTF-8, BOM accepted, comma separated,
 * header row with a `number` column; CRLF, LF and CR all end a row). The server's import worker
 * and the CLI's local check both read files here, so they see exactly the same rows.
 *
 * A row is a line. Every line end (CR, LF or CRLF, mixed in any way) ends a row, inside quotes
 * too: a quote left open at the end of its line is that row's error, never a value that runs
 * on and swallows the next rows (a general CSV parser does that, and detects one line end per
 * file, so a file mixing them merged rows silently). Within a line, RFC 4180 quoting applies.
 * A line with more non-empty values than the header has columns is an error too (an unquoted
 * comma shifts every value after it). A line whose values are all blank is not a row.
 *
 * A value with a line break (a spreadsheet writes it quoted over two lines) therefore cannot come
 * in: its first line is reported as a value left open, and the line that closes the value is
 * reported as the rest of that row, naming it, rather than as a puzzling stray quote.
 *
 * Each cell is given back as `contacts export` was given it: the `'` the export puts before a
 * formula-like value (csv-cells.ts) is taken off here, so every reader gets the same value.
 */
import { open } from 'node:fs/promises';
import { restoreFormula } from './csv-cells.js';

/** One row of the file in order: a parsed record or a row that cannot be read. */
export type CsvItem =
  | { kind: 'record'; cells: string[]; line: number }
  | { kind: 'error'; line: number; message: string };

/** A single line beyond this is a broken file, not a contact. */
const MAX_LINE_BYTES = 1024 * 1024;
/** How much of the upload is read to decide whether it is a CSV with a usable header. */
const HEAD_BYTES = 64 * 1024;
const READ_CHUNK = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

export const FILE_NOT_CSV = 'The file must be a UTF-8 CSV file whose header row has a number column.';

const MESSAGES = {
  unclosed: 'The row has a quoted value that is not closed on its line: a value with a line break cannot be imported (every line end ends a row).',
  strayQuote: 'The row has a quote inside a value that does not start with one.',
  afterQuote: 'The row has text after the closing quote of a value.',
  tooLong: 'The row is too long.',
} as const;

/** One physical line: its bytes (valid until the next line is read) and its 1-based number. */
interface Line {
  bytes: Buffer;
  line: number;
  tooLong: boolean;
}

/**
 * Every line of the file with its number, the BOM removed. CR, LF and CRLF each end a line
 * (a CRLF split between two reads too); the last line needs no line end.
 */
async function* readLines(path: string): AsyncGenerator<Line> {
  const handle = await open(path, 'r');
  try {
    let line = 0;
    let first = true;
    let afterCr = false; // the previous read ended with a CR: an LF first in this one is its pair
    let partial: Buffer[] = []; // the start of a line that began in an earlier read
    let partialBytes = 0;
    let tooLong = false;
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const finish = (tail: Buffer): Line => {
      line += 1;
      const bytes = partial.length === 0 ? tail : Buffer.concat([...partial, tail]);
      const out = { bytes: tooLong ? Buffer.alloc(0) : bytes, line, tooLong };
      partial = [];
      partialBytes = 0;
      tooLong = false;
      return out;
    };
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      let data = buffer.subarray(0, bytesRead);
      if (first) {
        first = false;
        if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
      }
      let start = 0;
      if (afterCr && data[0] === LF) start = 1;
      afterCr = false;
      // The next CR and LF, each found once per read position (not rescanned for every line).
      let nextLf = data.indexOf(LF, start);
      let nextCr = data.indexOf(CR, start);
      while (nextLf >= 0 || nextCr >= 0) {
        const end = nextCr < 0 || (nextLf >= 0 && nextLf < nextCr) ? nextLf : nextCr;
        const tail = data.subarray(start, end);
        yield finish(tail);
        start = end + 1;
        if (data[end] === CR) {
          if (start < data.length && data[start] === LF) start += 1;
          else if (start === data.length) afterCr = true;
        }
        if (nextLf >= 0 && nextLf < start) nextLf = data.indexOf(LF, start);
        if (nextCr >= 0 && nextCr < start) nextCr = data.indexOf(CR, start);
      }
      if (start < data.length) {
        // The rest is the start of a line that ends in a later read; bounded, past the limit
        // only its length counts.
        const rest = data.subarray(start);
        partialBytes += rest.length;
        if (partialBytes > MAX_LINE_BYTES) {
          tooLong = true;
          partial = [];
        } else if (!tooLong) partial.push(Buffer.from(rest));
      }
    }
    if (partialBytes > 0 || tooLong) yield finish(Buffer.alloc(0));
  } finally {
    await handle.close();
  }
}

/** Why a line is not a row of its own: the rest of the value line `openedOn` left open. */
const continues = (openedOn: number) =>
  `The row is the rest of a value broken by a line break on line ${openedOn}: that contact was not imported (every line end ends a row).`;

/** The cells of one line, or why it is not a CSV row (RFC 4180 quoting within the line). */
export function parseLine(text: string): { cells: string[] } | { error: string } {
  const parsed = splitLine(text);
  if ('cells' in parsed) {
    // In place: a million rows need no second array each.
    const { cells } = parsed;
    for (let i = 0; i < cells.length; i++) cells[i] = restoreFormula(cells[i]);
  }
  return parsed;
}

/**
 * Whether a line reads as the end of a quoted value begun on an earlier line: a closing quote
 * (a `"` not doubled) followed by the end of the line or a comma.
 */
function closesOpenValue(text: string): boolean {
  for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 2)) {
    if (text[at + 1] === '"') continue;
    return at + 1 === text.length || text[at + 1] === ',';
  }
  return false;
}

function splitLine(text: string): { cells: string[] } | { error: string } {
  if (!text.includes('"')) return { cells: text.split(',') };
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        const close = text.indexOf('"', j);
        if (close < 0) return { error: MESSAGES.unclosed };
        value += text.slice(j, close);
        if (text[close + 1] === '"') {
          value += '"';
          j = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      cells.push(value);
      if (i === text.length) return { cells };
      if (text[i] !== ',') return { error: MESSAGES.afterQuote };
      i += 1;
      continue;
    }
    const comma = text.indexOf(',', i);
    const value = comma < 0 ? text.slice(i) : text.slice(i, comma);
    if (value.includes('"')) return { error: MESSAGES.strayQuote };
    cells.push(value);
    if (comma < 0) return { cells };
    i = comma + 1;
  }
}

const isBlank = (cell: string) => cell.trim() === '';

/**
 * Turns lines into rows, in order: one call a line, the item it makes (undefined for a line that
 * is not a row). Keeps what rows depend on across lines: the header's width, a value left open.
 */
function rowMaker(): (text: string, line: number) => CsvItem | undefined {
  let columns: number | undefined;
  /** The line of the last value left open, while no line has closed it yet. */
  let openedOn: number | undefined;
  return (text, line) => {
    const parsed = parseLine(text);
    if ('error' in parsed) {
      // A line that is a row on its own stays one; only a line that cannot be is read as the rest.
      if (openedOn !== undefined && closesOpenValue(text)) {
        const message = continues(openedOn);
        openedOn = undefined;
        return { kind: 'error', line, message };
      }
      if (parsed.error === MESSAGES.unclosed) openedOn = line;
      return { kind: 'error', line, message: parsed.error };
    }
    const { cells } = parsed;
    // A row of empty cells (spreadsheet exports end with them) is not a row, like a blank line.
    if (cells.every(isBlank)) return undefined;
    if (columns === undefined) columns = cells.length;
    else if (cells.length > columns && !cells.slice(columns).every(isBlank)) {
      const values = cells.findLastIndex((cell) => !isBlank(cell)) + 1;
      return { kind: 'error', line, message: `The row has ${values} values but the header has ${columns} columns.` };
    }
    return { kind: 'record', cells, line };
  };
}

/**
 * Every row of the file, header first, with its line number. Rows that cannot be read come
 * out as `error` items in their place, so a bad row is reported and the import goes on.
 */
export async function* readCsvRows(path: string): AsyncGenerator<CsvItem> {
  const rowOf = rowMaker();
  for await (const { bytes, line, tooLong } of readLines(path)) {
    if (tooLong) {
      yield { kind: 'error', line, message: MESSAGES.tooLong };
      continue;
    }
    const item = rowOf(bytes.toString('utf8'), line);
    if (item) yield item;
  }
}

/** The rows of CSV text already in memory (standard input, a small file), read exactly as readCsvRows reads a file. */
export function csvTextRows(text: string): CsvItem[] {
  const rowOf = rowMaker();
  const items: CsvItem[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((lineText, index) => {
      const item = rowOf(lineText, index + 1);
      if (item) items.push(item);
    });
  // A final line end makes no empty row (nor does any blank line).
  return items;
}

/** Header names as matched against columns and contact fields: trimmed, lowercase. */
export const headerName = (cell: string) => cell.trim().toLowerCase();

/**
 * Decides at upload time whether the file can be imported: UTF-8 text (a BOM is fine), no NUL
 * bytes, and a first line (ended by CR or LF) that parses as a CSV header naming `number`.
 */
export async function looksLikeImportCsv(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  let head: Buffer;
  let fileSize: number;
  try {
    fileSize = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(HEAD_BYTES, fileSize));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length === 0 || head.includes(0)) return false;
  let text: string;
  try {
    // stream: true tolerates a character cut in two at the end of the sample.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < fileSize });
  } catch {
    return false;
  }
  const end = text.search(/[\r\n]/);
  if (end < 0 && head.length < fileSize) return false; // a header longer than the sample
  const parsed = parseLine((end < 0 ? text : text.slice(0, end)).replace(/^\uFEFF/, ''));
  return 'cells' in parsed && parsed.cells.map(headerName).includes('number');
}

/** Bytes that leave a line blank when no quote is on it: comma, tab, VT, FF, space. */
const BLANK_BYTE = new Uint8Array(256);
for (const byte of [0x2c, 0x09, 0x0b, 0x0c, 0x20]) BLANK_BYTE[byte] = 1;

/**
 * The number of rows `readCsvRows` yields after the header (records and error items), mostly
 * without decoding: a line with a printable ASCII byte other than a comma or a quote is a row
 * whatever its quoting (that byte is a value's content, or makes the line an error). Only
 * lines of blanks, quotes and non-ASCII bytes are parsed to decide.
 */
export async function countDataRows(path: string): Promise<number> {
  let rows = 0;
  for await (const { bytes, tooLong } of readLines(path)) {
    if (tooLong || isRowLine(bytes)) rows += 1;
  }
  return Math.max(0, rows - 1); // the header is not a data row
}

function isRowLine(bytes: Buffer): boolean {
  let unsure = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte >= 0x80 || byte === QUOTE) unsure = true;
    else if (!BLANK_BYTE[byte]) return true;
  }
  if (!unsure) return false;
  const parsed = splitLine(bytes.toString('utf8'));
  return 'error' in parsed || !parsed.cells.every(isBlank);
}
