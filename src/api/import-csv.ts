/**
 * Reading import files (decisions.md §3: CSV, UTF-8, BOM accepted, comma
 * separated, header row with a `number` column). The same reader serves the
 * counting pass and the processing pass, so both see exactly the same rows.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse, type CsvError, type Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/** One row of the file in order: a parsed record or a row the parser could not read. */
export type CsvItem =
  | { kind: 'record'; cells: string[]; line: number }
  | { kind: 'error'; line: number; message: string };

interface SequencedRecord {
  sequence: number;
  cells: string[];
  line: number;
}

/** A single record beyond this is a broken file (an unclosed quote), not a contact. */
const MAX_RECORD_CHARS = 1024 * 1024;
/** How much of the upload is read to decide whether it is a CSV with a usable header. */
const HEAD_BYTES = 64 * 1024;

export const FILE_NOT_CSV = 'The file must be a UTF-8 CSV file whose header row has a number column.';

const countOf = (text: string, needle: string) => text.split(needle).length - 1;

function describe(error: CsvError | undefined): string {
  if (error?.code === 'CSV_QUOTE_NOT_CLOSED') return 'The row has a quoted value that is never closed.';
  if (error?.code === 'CSV_MAX_RECORD_SIZE') return 'The row is too long.';
  return 'The row is not valid CSV.';
}

/**
 * Every row of the file, header first, with the 1-based line where it starts.
 * Rows the parser rejects come out as `error` items in their place, so a bad
 * row is reported and the import goes on.
 */
export async function* readCsvRows(path: string): AsyncGenerator<CsvItem> {
  // on_record and on_skip run synchronously in file order; a sequence number
  // lets the skipped rows be put back between the records around them.
  let sequence = 0;
  // csv-parse counts a CRLF inside a quoted value as two lines: keep the excess to subtract.
  let extraLines = 0;
  // Where the last row ended, to place a row the parser rejects: it reports where it gave up
  // (for an unclosed quote, the end of the file), while the user needs where the row starts.
  let lastEnd = 0;
  let lastEmptyLines = 0;
  const skipped: Array<{ sequence: number; item: CsvItem }> = [];
  const options: Options<SequencedRecord | null, string[]> = {
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_CHARS,
    on_record: (cells, context) => {
      let breaks = 0;
      for (const cell of cells) {
        if (!cell.includes('\n')) continue;
        breaks += countOf(cell, '\n');
        extraLines += countOf(cell, '\r\n');
      }
      lastEnd = context.lines - extraLines;
      lastEmptyLines = context.empty_lines;
      // A row of empty cells (spreadsheet exports end with them) is not a row, like a blank line.
      if (cells.every((cell) => cell.trim() === '')) return null;
      return { sequence: sequence++, cells, line: lastEnd - breaks };
    },
    on_skip: (error: CsvError | undefined) => {
      const blankLinesBefore = Number(error?.empty_lines ?? lastEmptyLines) - lastEmptyLines;
      const line = lastEnd + 1 + Math.max(0, blankLinesBefore);
      lastEnd = line;
      skipped.push({ sequence: sequence++, item: { kind: 'error', line, message: describe(error) } });
      return undefined;
    },
  };
  // The typings tie on_record's result to string[]; ours returns the record with its place.
  const parser = parse(options as unknown as Options);
  pipeline(createReadStream(path), parser, () => {
    // Errors surface through the iteration below.
  });
  for await (const record of parser as AsyncIterable<SequencedRecord>) {
    while (skipped.length > 0 && skipped[0].sequence < record.sequence) yield skipped.shift()!.item;
    yield { kind: 'record', cells: record.cells, line: record.line };
  }
  for (const entry of skipped) yield entry.item;
}

/** Header names as matched against columns and contact fields: trimmed, lowercase. */
export const headerName = (cell: string) => cell.trim().toLowerCase();

/**
 * Decides at upload time whether the file can be imported: UTF-8 text (a BOM is
 * fine), no NUL bytes, and a first line that parses as a CSV header naming `number`.
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
  const newline = text.indexOf('\n');
  if (newline < 0 && head.length < fileSize) return false; // a header longer than the sample
  const firstLine = (newline < 0 ? text : text.slice(0, newline)).replace(/^\uFEFF/, '');
  try {
    const [header] = parseSync(firstLine, { relax_quotes: true, relax_column_count: true }) as string[][];
    return (header ?? []).map(headerName).includes('number');
  } catch {
    return false;
  }
}

/** Bytes that leave a quote-free line blank: comma, tab, LF, VT, FF, CR, space. */
const BLANK_BYTE = new Uint8Array(256);
for (const byte of [0x2c, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) BLANK_BYTE[byte] = 1;
const READ_CHUNK = 1024 * 1024;

/**
 * The number of rows `readCsvRows` yields after the header (records and
 * error items), without parsing: for a file with no quote character and
 * consistent line ends (all LF or all CRLF) a row is exactly a line with a
 * cell that is not blank. Any other file is counted by parsing it.
 */
export async function countDataRows(path: string): Promise<number> {
  const fast = await countPlainLines(path);
  if (fast !== undefined) return Math.max(0, fast - 1);
  let rows = -1; // the header is not a data row
  for await (const _ of readCsvRows(path)) rows += 1;
  return Math.max(0, rows);
}

/** Non-blank lines of a quote-free file, or undefined when the file needs the parser. */
async function countPlainLines(path: string): Promise<number | undefined> {
  const handle = await open(path, 'r');
  try {
    let lines = 0;
    let lf = 0;
    let crlf = 0;
    let carry: Buffer = Buffer.alloc(0);
    // A line is a row when it has a cell that is not blank; only a line made of blank
    // and non-ASCII bytes needs decoding to decide (Unicode spaces are blank too).
    const isRow = (data: Buffer, start: number, end: number): boolean => {
      let nonAscii = false;
      for (let i = start; i < end; i++) {
        const byte = data[i];
        if (byte >= 0x80) nonAscii = true;
        else if (!BLANK_BYTE[byte]) return true;
      }
      return nonAscii && data.toString('utf8', start, end).replaceAll(',', '').trim() !== '';
    };
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      const read = buffer.subarray(0, bytesRead);
      if (read.includes(0x22)) return undefined; // a quote: only the parser knows the rows
      const data = carry.length ? Buffer.concat([carry, read]) : read;
      const hasCr = data.includes(0x0d);
      let start = 0;
      for (;;) {
        const newline = data.indexOf(0x0a, start);
        if (newline < 0) break;
        let end = newline;
        if (end > start && data[end - 1] === 0x0d) {
          crlf += 1;
          end -= 1;
        } else lf += 1;
        if (hasCr) {
          const cr = data.indexOf(0x0d, start);
          if (cr >= 0 && cr < end) return undefined; // a lone CR: another line end
        }
        if (isRow(data, start, end)) lines += 1;
        start = newline + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.includes(0x0d)) return undefined;
    if (isRow(carry, 0, carry.length)) lines += 1;
    if (crlf > 0 && lf > 0) return undefined; // mixed line ends: leave them to the parser
    return lines;
  } finally {
    await handle.close();
  }
}
