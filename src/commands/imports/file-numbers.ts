// The numbers an import file names, read by themselves before its rows are planned: in a workspace
// too large to read whole, each is then looked up (large-workspace.ts), as few requests as the file
// has numbers; for a plan that settles each contact at its last row (contacts/plan-import.ts), how
// many rows name each number. Only the number column is read, as the check reads it (the same
// reader, header and normalisation), so every valid row's number is counted; a cell that is no
// stored number (7 to 15 digits once normalised) names no contact.
import { hasCells } from '../../api/import-csv.js';
import { planColumns } from '../../api/import-columns.js';
import { normalizeNumber } from '../../api/schemas/index.js';
import { NumberTable } from '../contacts/number-table.js';
import { type HoldSource, openRows } from './hold-pass.js';

const STORED_NUMBER = /^\d{7,15}$/;

/** Hands each stored number of `source`'s rows, in file order, to `take` until it says `false`. */
async function eachNumber(source: HoldSource, take: (number: string) => boolean): Promise<void> {
  const rows = await openRows(source);
  let numberAt: number | undefined;
  try {
    for await (const batch of rows.batches)
      for (const row of batch) {
        if (!hasCells(row)) continue;
        if (numberAt === undefined) {
          numberAt = planColumns(row.cells).contact.number ?? 0;
          continue;
        }
        const number = normalizeNumber(row.cells[numberAt] ?? '');
        if (STORED_NUMBER.test(number) && !take(number)) return;
      }
  } finally {
    await rows.close();
  }
}

/** The distinct numbers of `source`'s rows as the server stores them, or undefined once there are more than `most` (read no further). */
export async function fileNumbers(source: HoldSource, most: number): Promise<Set<string> | undefined> {
  const numbers = new Set<string>();
  let over = false;
  await eachNumber(source, (number) => {
    numbers.add(number);
    over = numbers.size > most;
    return !over;
  });
  return over ? undefined : numbers;
}

/**
 * How many rows of `source` name each number named more than once (every other number: one). A
 * row costs a few bytes of a typed table while the file is read (number-table.ts), and only the
 * repeated numbers are kept.
 */
export async function repeatCounts(source: HoldSource): Promise<Map<string, number>> {
  const table = new NumberTable();
  await eachNumber(source, (number) => {
    table.add(number, 0, 0);
    return true;
  });
  return new Map(table.repeated().map((entries) => [table.numberOf(entries[0]), entries.length]));
}
