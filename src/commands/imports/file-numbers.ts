// The numbers an import file names, read before it is planned in a workspace too large to read
// whole: each is then looked up by itself (large-workspace.ts), as few requests as the file has
// numbers. Only the number column is read; a cell that is no stored number (7 to 15 digits once
// normalised) names no contact and is not looked up.
import { hasCells } from '../../api/import-csv.js';
import { planColumns } from '../../api/import-columns.js';
import { normalizeNumber } from '../../api/schemas/index.js';
import { type HoldSource, openRows } from './hold-pass.js';

const STORED_NUMBER = /^\d{7,15}$/;

/** The distinct numbers of `source`'s rows as the server stores them, or undefined once there are more than `most` (read no further). */
export async function fileNumbers(source: HoldSource, most: number): Promise<Set<string> | undefined> {
  const rows = await openRows(source);
  const numbers = new Set<string>();
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
        if (!STORED_NUMBER.test(number)) continue;
        numbers.add(number);
        if (numbers.size > most) return undefined;
      }
    return numbers;
  } finally {
    await rows.close();
  }
}
