// A file that cannot be read as the workbook its name says it is: damaged, hostile, password-protected,
// or not a workbook at all. Carries the file and, where there is one, the cell or row, so that the
// one who reads the message can find the spot; the CLI says what this means for the command
// (src/cli/errors.ts: exit 2, nothing was sent). Kept apart from the reader, which loads only for
// an .xlsx, so that the CLI's error table can know it without loading the reader.
export class WorkbookError extends Error {
  constructor(
    /** The file as the user named it. */
    readonly file: string,
    /** What is wrong, in the user's words. */
    readonly reason: string,
    /** `cell D17 of sheet "Contacts"`, `row 12 of sheet "Contacts"`, when the problem has a place. */
    readonly where?: string,
  ) {
    super(`${file}${where === undefined ? '' : ` (${where})`}: ${reason}`);
  }
}
