// What an import uploads when its file is not already the CSV every server reads: wsm reads a
// semicolon- or tab-separated file, a UTF-16 one and an export whose `'` guards a formula-like
// value, the published API only UTF-8, comma-separated CSV, as written. Such a file is sent as
// that CSV: its rows as wsm's own reader gives them (openCsv, the reader of `wsm serve`'s import,
// which takes the export's guard off exactly where that import does), RFC 4180, written once into
// a private file, the cells a plan holds left out as for any upload. The export's id and times
// are left out (columnsToSend), so no server reads the copy as an export and takes a `'` off
// again. Row N of the copy is row N of the file and line N its line N: blank records and
// unreadable rows keep their places, so every row and line a server names is the user's file's.
import { batchedWriter } from './batched-write.js';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type CsvFormat, hasCells, openCsv } from '../../api/import-csv.js';
import { IMPORT_MAX_BYTES } from '../../api/schemas/index.js';
import { refuseOverLimit } from '../shared/verb.js';
import { columnsToSend, csvField } from '../../formats/csv/cells.js';
import { CSV_MESSAGES, MAX_QUOTED_CHARS, MAX_RECORD_CHARS } from '../../formats/csv/reader.js';
import { cellsWithoutHeld, lineEnds } from './held-cells.js';
import type { HeldCells } from './import-plan.js';
import type { WrittenUpload } from './sheet-upload.js';

/** Whether a file read so is what every server reads as wsm does: UTF-8 (a BOM allowed), comma-separated, not an export. */
export const readAlikeEverywhere = (format: CsvFormat): boolean =>
  format.encoding === 'utf-8' && format.separator === ',' && !format.wsmExport;

/** Whether `file` is sent as its own bytes, known from its start alone (a start that cannot be read: as it is). */
async function sentAsItIs(file: string): Promise<boolean> {
  const csv = await openCsv(file).catch(() => undefined);
  if (csv === undefined) return true;
  await csv.close();
  return readAlikeEverywhere(csv.format);
}

/**
 * How much smaller than its file a copy can be: UTF-16 halves, and an export's id and two dates,
 * left out, are most of a short row. A file larger still is refused before it is read at all.
 */
const COPY_SHRINKS_AT_MOST = 8;

/**
 * The size of `file` (0 when it cannot be read: the header check's to word), refused (exit 2)
 * over the server's limit before its rows are read when the file is sent as its own bytes. A file
 * sent as the CSV of its rows is checked as that copy once written (sheet-upload.ts writtenCopy),
 * before anything is sent: its size is not the file's (quotes added, UTF-16 halved).
 */
export async function sizeWithinLimit(file: string, source: string): Promise<number> {
  const size = await stat(file).then(
    (info) => (info.isFile() ? info.size : 0),
    () => 0,
  );
  if (size > IMPORT_MAX_BYTES * COPY_SHRINKS_AT_MOST || (size > IMPORT_MAX_BYTES && (await sentAsItIs(file))))
    refuseOverLimit(source, size, 'file', IMPORT_MAX_BYTES);
  return size;
}

/**
 * One line every reader of wsm refuses with `message`, as it refused the file's own row, so that
 * wsm serve names it on its line; its quotes are paired, so that no laxer reader runs on into the
 * rows after it.
 */
function unreadableLine(message: string): string {
  if (message === CSV_MESSAGES.afterQuote) return '""x';
  if (message === CSV_MESSAGES.unclosed) return `"${'x'.repeat(MAX_QUOTED_CHARS + 1)}"`;
  if (message === CSV_MESSAGES.tooLong) return 'x'.repeat(MAX_RECORD_CHARS + 1);
  return 'x""';
}

/** `rows` records that are no row (blank) spanning `lines` lines: what stood before the next row in the file. */
function blankRecords(rows: number, lines: number): string {
  if (rows <= 0) return '';
  const spanned = lines - rows;
  return '\n'.repeat(rows - 1) + (spanned > 0 ? `"${'\n'.repeat(spanned)}"\n` : '\n');
}

/** Writes the rows of `file` (an import file checkImportHeader accepted) into `target` (an open file) as CSV, without the cells and rows `held`. */
export async function writeCanonical(file: string, target: number, held: HeldCells): Promise<void> {
  const csv = await openCsv(file);
  const { write, end } = batchedWriter(target, IMPORT_MAX_BYTES);
  let header: string[] | undefined;
  let keep: number[] = [];
  let row = 1;
  let line = 1;
  for await (const batch of csv.batches)
    for (const item of batch) {
      write(blankRecords(item.row - row, item.line - line));
      row = item.row + 1;
      line = item.line + 1;
      // Values beyond the header's columns go as written: a server may ignore them.
      if (!hasCells(item)) {
        write(`${unreadableLine(item.message)}\n`);
        continue;
      }
      if (header === undefined) {
        header = item.cells;
        keep = columnsToSend(header);
      }
      const cells = cellsWithoutHeld(item.cells, header, held.get(item.row));
      const sent = [...keep.filter((at) => at < cells.length).map((at) => cells[at]), ...cells.slice(header.length)];
      // A column left out (the export's id or times) may have held line breaks: a blank cell keeps the record's lines.
      const dropped = lineEnds(item.cells) - lineEnds(sent);
      if (dropped > 0) sent.push('\n'.repeat(dropped));
      write(`${sent.map(csvField).join(',')}\n`);
      line += lineEnds(item.cells);
    }
  end();
}

/** How `file` (`source` in messages) is sent when it is not read alike everywhere: as the CSV of its rows, under its own name. */
export function canonicalUpload(file: string, source: string, format: CsvFormat): WrittenUpload | undefined {
  if (readAlikeEverywhere(format)) return undefined;
  return { source, fileName: basename(file), write: (target, held) => writeCanonical(file, target, held) };
}
