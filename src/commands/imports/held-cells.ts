// The upload an import's plan makes: the file with the cells it holds emptied (an import keeps the
// stored value of an empty cell, so the contact keeps it) and the rows it leaves out blank (a row
// of empty cells is no row). Every record stays on its own lines, so the server's rows and lines
// are the file's, and the rest is the file's own cells, with its separator (the export's `'`
// before a formula left on: the server takes it off as from the file itself).
import { writeSync } from 'node:fs';
import { headerName } from '../../api/import-csv.js';
import { decodedChunks } from '../../formats/csv/encoding.js';
import { tokenizeCsv } from '../../formats/csv/reader.js';
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
    if (at >= 0) sent[at] = '';
  }
  return sent;
}

/** Writes `file` into `target` (an open file) without the held cells and rows; `separator` is the file's. */
export async function writeWithoutHeld(file: string, target: number, separator: string, held: HeldCells): Promise<void> {
  let text = '';
  for await (const chunk of decodedChunks(file)) text += chunk.text;
  text = text.replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\r|\n/);
  let header: string[] | undefined;
  let pending = '';
  const write = (part: string) => {
    pending += part;
    if (pending.length < 1 << 16) return;
    writeSync(target, pending);
    pending = '';
  };
  for (const token of tokenizeCsv(text, separator)) {
    // A row that cannot be read is written as it was, for the server to name as the check did.
    if (token.kind === 'error') {
      write(`${lines[token.line - 1]}\n`);
      continue;
    }
    if (header === undefined && token.cells.some((cell) => cell.trim() !== '')) header = token.cells;
    const cells = cellsWithoutHeld(token.cells, header, held.get(token.row));
    write(`${cells.map((cell) => csvCell(cell, separator)).join(separator)}\n`);
  }
  writeSync(target, pending);
}
