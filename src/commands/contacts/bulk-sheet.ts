// `contacts update|delete --from FILE.xlsx [--sheet NAME]`: the sheet read as the spreadsheet
// displays it (src/formats/xlsx), as CSV text the bulk input reads like any other, its rows named by
// their sheet rows. A cell holding an error (`#N/A`) stops everything before anything is sent,
// naming the cell, as any bad row of a bulk input does; formulas are read as their saved results,
// with a warning.
import type { Context } from '../../cli/context.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { hostFile } from '../../cli/host-files.js';
import { countOf } from '../../cli/text.js';
import type { SheetCsv } from '../../formats/xlsx/sheet-csv.js';
import type { SheetText } from './bulk-input.js';

/** Whether a file is read as a spreadsheet: by its name (the reader loads only then). */
export const isSpreadsheetFile = (path: string) => /\.xlsx$/i.test(path);

/** --sheet names a sheet of a workbook: with any other input it is a mistake, said before anything is read. */
export function checkSheetFlag(path: string, sheet: string | undefined): void {
  if (sheet !== undefined && !isSpreadsheetFile(path))
    throw new UsageError(`--sheet names a sheet of an .xlsx workbook; ${path === '-' ? 'standard input' : path} is not one`);
}

export async function sheetText(ctx: Context, path: string, sheet: string | undefined): Promise<SheetText> {
  const { sheetToCsv } = await import('../../formats/xlsx/sheet-csv.js');
  let text = '';
  const read = await sheetToCsv(hostFile(ctx, path), { sheet, write: (part) => void (text += part) });
  const warning = formulaWarning(path, read);
  if (warning !== undefined) ctx.output.warn(warning);
  if (read.problems.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const problem of read.problems) (errors[`row ${problem.row} ${problem.cell}`] ??= []).push(problem.message);
    throw new RequestValidationError(`${path} has cells holding errors, not values: nothing was sent`, errors);
  }
  return { text };
}

/** What is said of a sheet's formulas: their saved results are read, never computed. */
export function formulaWarning(source: string, sheet: SheetCsv): string | undefined {
  const { count, first } = sheet.formulas;
  if (count === 0) return undefined;
  return `${source}: ${countOf(count, 'cell')} ${count === 1 ? 'holds a formula' : 'hold formulas'} (first ${first}): the result the spreadsheet saved with ${count === 1 ? 'it' : 'them'} is read (recalculate and save the file first if it may be stale)`;
}
