// The cells of a sheet whose display drops digits they hold (a scientific `4.48E+11` for
// 447911123458): each is read in full (number-format.ts) and noted here, so that the commands can
// say so, once and under the row's contact in a plan (src/commands/contacts/bulk-sheet.ts).

/** Notes kept by cell; past them the cells are counted (a plan reads at most as many contacts). */
const NOTES_KEPT = 10_000;

export interface DigitsNote {
  row: number;
  /** `D17`. */
  cell: string;
  shown: string;
  read: string;
}

export interface DigitsNotes {
  /** Cells read in full, kept or not. */
  count: number;
  notes: DigitsNote[];
}

export const noDigitsNotes = (): DigitsNotes => ({ count: 0, notes: [] });

export function keepDigitsNote(notes: DigitsNotes, note: DigitsNote): void {
  notes.count++;
  if (notes.notes.length < NOTES_KEPT) notes.notes.push(note);
}
