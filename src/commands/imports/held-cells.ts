// The upload an import's plan makes: the file with the cells it holds emptied (an import keeps the
// stored value of an empty cell, so the contact keeps it) and the rows it leaves out blank (a row
// of empty cells is no row). Only those records are written anew, on as many lines as they had, so
// the server's rows and lines are the file's; every other byte of the file's text is copied as it
// is, a chunk at a time, never the whole file held in memory. Only a file every server reads as
// wsm does (UTF-8, comma-separated, no export) is sent so; any other goes as the CSV of its rows
// (canonical-csv.ts), so a record is written anew as comma CSV.
import { batchedWriter } from './batched-write.js';
import { hasCells, headerName, openCsv } from '../../api/import-csv.js';
import { decodedChunks } from '../../formats/csv/encoding.js';
import type { HeldCells } from './import-plan.js';
import { csvCell } from './rejects.js';

/** The column of a plan key (`name`, `fields.city`) in the header, the first of a name given twice. */
function columnOf(header: string[], key: string): number {
  const name = key.startsWith('fields.') ? key.slice('fields.'.length) : key;
  return header.findIndex((cell) => headerName(cell) === name);
}

/** A row's cells as sent: its held cells emptied, or every cell blank (its line ends kept, so lines stay) when the row is held whole. */
export function cellsWithoutHeld(cells: string[], header: string[] | undefined, holding: string[] | 'row' | undefined): string[] {
  if (holding === 'row') return cells.map((cell) => cell.replace(/[^\r\n]/g, ''));
  if (holding === undefined || header === undefined) return cells;
  const sent = [...cells];
  for (const key of holding) {
    const at = columnOf(header, key);
    // Its line ends stay (a cell of line ends alone is empty to the import): the rows after it keep their lines.
    if (at >= 0) sent[at] = sent[at].replace(/[^\r\n]/g, '');
  }
  return sent;
}

/** A record written anew: the line it starts on, how many lines it spans, and its text without a line end. */
export interface RewrittenRecord {
  line: number;
  lines: number;
  text: string;
}

/** Line ends in a record's cells, as the reader counts them (CRLF once): the record spans one line more. */
export const lineEnds = (cells: string[]) => cells.join(',').match(/\r\n|\r|\n/g)?.length ?? 0;

/** The record of a row as read (`cells` as the reader gives them), without what it holds. */
export function rewrittenRecord(row: { line: number; cells: string[] }, header: string[], holding: string[] | 'row'): RewrittenRecord {
  const cells = cellsWithoutHeld(row.cells, header, holding);
  return { line: row.line, lines: 1 + lineEnds(row.cells), text: cells.map((cell) => csvCell(cell, ',')).join(',') };
}

/** The records of `file` that `held` names (by row), rewritten: read once more, for a plan made of the rows alone. */
export async function rewrittenRecords(file: string, held: HeldCells): Promise<RewrittenRecord[]> {
  const csv = await openCsv(file);
  const records: RewrittenRecord[] = [];
  let header: string[] | undefined;
  for await (const batch of csv.batches)
    for (const row of batch) {
      if (header === undefined) header = row.kind === 'record' ? row.cells : [];
      const holding = held.get(row.row);
      if (holding !== undefined && hasCells(row)) records.push(rewrittenRecord(row, header, holding));
    }
  return records;
}

/** Writes `file`'s text into `target` (an open file) with `records` (in file order) in place of the lines they had. */
export async function writeWithoutHeld(file: string, target: number, records: readonly RewrittenRecord[]): Promise<void> {
  const { write, end } = batchedWriter(target);
  const ends = /\r\n|\r|\n/g;
  let line = 1;
  let atLineStart = true;
  let next = 0;
  /** Line ends still to pass over inside a record written anew. */
  let skipping = 0;
  let carried = '';
  let first = true;
  for await (const chunk of decodedChunks(file)) {
    let text = carried + (first ? chunk.text.replace(/^\uFEFF/, '') : chunk.text);
    first = false;
    // A CR at a chunk's end may be the first half of a CRLF: it waits for the next chunk.
    carried = !chunk.end && text.endsWith('\r') ? '\r' : '';
    if (carried !== '') text = text.slice(0, -1);
    if (skipping === 0 && next >= records.length) {
      write(text);
      continue;
    }
    let pos = 0;
    for (;;) {
      if (atLineStart && skipping === 0 && records[next]?.line === line) {
        write(records[next].text);
        skipping = records[next].lines;
        next += 1;
      }
      ends.lastIndex = pos;
      const found = ends.exec(text);
      if (found === null) {
        if (skipping === 0) write(text.slice(pos));
        atLineStart = pos === text.length && atLineStart;
        break;
      }
      const end = found.index + found[0].length;
      if (skipping === 0) write(text.slice(pos, end));
      else if (--skipping === 0) write(found[0]);
      line += 1;
      pos = end;
      atLineStart = true;
    }
  }
  end();
}
