// `contacts update|delete --from FILE.xlsx [--sheet NAME]`: the sheet read as the spreadsheet
// displays it (src/formats/xlsx), its rows as a CSV's reader gives them (cli/sheet-rows.ts, the
// import's reading too), which the bulk input reads like a CSV's, named by their sheet rows. A cell holding an error (`#N/A`) stops everything before anything is sent,
// naming the cell, as any bad row of a bulk input does; formulas are read as their saved results,
// with a warning; a cell whose display drops digits it holds is read in full, said once here and
// under its row in a plan (rowNotesInPlan).
import type { Context } from '../../cli/context.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { hostFile } from '../../cli/host-files.js';
import { countOf } from '../../cli/text.js';
import type { DigitsNote, DigitsNotes } from '../../formats/xlsx/digits-notes.js';
import type { SheetCsv } from '../../formats/xlsx/sheet-csv.js';
import type { SheetInput } from './bulk-input.js';
import type { Plan, PlannedContact } from './plan.js';

/** Whether a file is read as a spreadsheet: by its name (the reader loads only then). */
export const isSpreadsheetFile = (path: string) => /\.xlsx$/i.test(path);

/** --sheet names a sheet of a workbook: with any other input it is a mistake, said before anything is read. */
export function checkSheetFlag(path: string, sheet: string | undefined): void {
  if (sheet !== undefined && !isSpreadsheetFile(path))
    throw new UsageError(`--sheet names a sheet of an .xlsx workbook; ${path === '-' ? 'standard input' : path} is not one`);
}

export async function sheetInput(ctx: Context, path: string, sheet: string | undefined): Promise<SheetInput> {
  const { readSheetRows } = await import('../../cli/sheet-rows.js');
  const { read, items } = await readSheetRows(hostFile(ctx, path), { sheet });
  const warning = formulaWarning(path, read);
  if (warning !== undefined) ctx.output.warn(warning);
  const digits = digitsNotice(path, read.digits);
  if (digits !== undefined) ctx.output.notice(digits);
  if (read.problems.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const problem of read.problems) (errors[`row ${problem.row} ${problem.cell}`] ??= []).push(problem.message);
    throw new RequestValidationError(`${path} has cells holding errors, not values: nothing was sent`, errors);
  }
  return { items, rowNotes: digitsNotesByRow(read.digits) };
}

/** A plan with each sheet row's notes (`D17 shows 4.48E+11; read as 447911123458`) under the row's contact. */
export function rowNotesInPlan(plan: Plan, rowNotes: ReadonlyMap<number, string[]> | undefined): Plan {
  if (rowNotes === undefined || rowNotes.size === 0) return plan;
  return { ...plan, contacts: plan.contacts.map((contact) => withRowNotes(contact, rowNotes)) };
}

/** A contact of a plan with the notes of its sheet rows. */
export function withRowNotes(contact: PlannedContact, rowNotes: ReadonlyMap<number, string[]> | undefined): PlannedContact {
  if (rowNotes === undefined || rowNotes.size === 0) return contact;
  // A sheet's place is `row 17` (and its CSV line where a cell above holds a line break); several rows of one contact, each.
  const places = contact.rows?.map((row) => row.place) ?? [contact.place];
  const notes = places.flatMap((place) => rowNotes.get(Number(/^row (\d+)/.exec(place)?.[1])) ?? []);
  return notes.length === 0 ? contact : { ...contact, notes: [...notes, ...(contact.notes ?? [])] };
}

/** What is said of a sheet's formulas: their saved results are read, never computed. */
export function formulaWarning(source: string, sheet: SheetCsv): string | undefined {
  const { count, first } = sheet.formulas;
  if (count === 0) return undefined;
  return `${source}: ${countOf(count, 'cell')} ${count === 1 ? 'holds a formula' : 'hold formulas'} (first ${first}): the result the spreadsheet saved with ${count === 1 ? 'it' : 'them'} is read (recalculate and save the file first if it may be stale)`;
}

/** `D17 shows 4.48E+11; read as 447911123458`. */
const digitsNoteText = (note: DigitsNote) => `${note.cell} shows ${note.shown}; read as ${note.read}`;

/** Each sheet row's notes on cells read in full, by sheet row. */
export function digitsNotesByRow(digits: DigitsNotes): Map<number, string[]> {
  const byRow = new Map<number, string[]>();
  for (const note of digits.notes) (byRow.get(note.row) ?? byRow.set(note.row, []).get(note.row)!).push(digitsNoteText(note));
  return byRow;
}

/** What is said once for a sheet with cells whose display drops digits: how many, the first, and where they are all named. */
export function digitsNotice(source: string, digits: DigitsNotes): string | undefined {
  const first = digits.notes[0];
  if (first === undefined) return undefined;
  const many = digits.count === 1 ? 'shows fewer digits than it holds' : 'show fewer digits than they hold';
  return `${source}: ${countOf(digits.count, 'cell')} ${many}, each read in full (first ${digitsNoteText(first)}); --dry-run names them`;
}
