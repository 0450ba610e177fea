/**
 * The cells of the contact CSV (decisions.md §3): what `wsm contacts export` writes and what
 * every reader of such a file reads back (the server's import, the CLI's local check,
 * `contacts update --from`). One module, so a value goes out and comes back the same. Pure: no
 * dependencies, loaded by the CLI's output as well as by the server.
 */

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The columns `wsm contacts export` writes first, in this order (then one per contact field). */
export const EXPORT_COLUMNS = ['id', 'number', 'name', 'email', 'gender', 'status', 'contact_groups', 'created_at', 'updated_at'] as const;

/**
 * Whether a header row is the export's (EXPORT_COLUMNS first, in order, any case): the one kind of
 * file whose `'` before = + - @ is the export's guard, taken off by every reader (decisions.md,
 * "Spreadsheets"). Any other file keeps its values as written.
 */
export function isExportHeader(cells: readonly string[]): boolean {
  return EXPORT_COLUMNS.every((name, at) => cells[at]?.trim().toLowerCase() === name);
}

/** The export's columns an import reads nothing from (its id and times). */
const IMPORT_SKIPS = new Set(['id', 'created_at', 'updated_at']);

/**
 * The columns of `header` (by index) that an upload carries: all of them, but for the export's
 * header its id and times, so that the header sent is never the export's and no server takes a
 * `'` off the values sent.
 */
export function columnsToSend(header: readonly string[]): number[] {
  const exported = isExportHeader(header);
  return header.map((_, at) => at).filter((at) => !(exported && IMPORT_SKIPS.has(header[at].trim().toLowerCase())));
}

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP CSV injection). */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A cell `neutraliseFormula` prefixed: one `'` too many before a formula character. */
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/**
 * OWASP CSV injection: a cell a spreadsheet would read as a formula gets a leading `'`, so it
 * shows as text. A value that already starts with quotes before such a character gets one more,
 * so that `restoreFormula` gives back exactly what was written (`'=x` -> `''=x` -> `'=x`).
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The value `neutraliseFormula` was given: the one `'` it added is taken off, nothing else. */
export function restoreFormula(cell: string): string {
  // The first character decides for nearly every cell: a million rows do not pay for a regex.
  return cell.charCodeAt(0) === 0x27 && NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

/**
 * The `contact_groups` cell: the group names as a JSON array (`["VIP","News; weekly"]`). JSON
 * because a group name may hold any character (commas, semicolons, quotes, brackets), and names
 * rather than ids because ids mean nothing in another workspace.
 */
export function encodeGroupNames(names: readonly string[]): string {
  return JSON.stringify(names);
}

const GROUPS_CELL_FORMAT = 'The contact groups cell must be a JSON array of group names, such as ["VIP","News"] (or [] for none).';

/** The names of a `contact_groups` cell, trimmed, each once; a string saying why when it is not one. */
export function decodeGroupNames(cell: string): string[] | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    return { error: GROUPS_CELL_FORMAT };
  }
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return { error: GROUPS_CELL_FORMAT };
  return [...new Set((value as string[]).map((name) => name.trim()))];
}

/**
 * A yes/no cell as spreadsheets write it (decisions.md, "The operator's loop"): `true`/`false` in any case
 * (Excel and LibreOffice write TRUE and FALSE), `yes`/`no`, `1`/`0`, and for the status column
 * `active`/`inactive`; undefined for anything else, which is refused, never guessed.
 */
export function readCsvBoolean(cell: string): boolean | undefined {
  const text = cell.trim().toLowerCase();
  if (text === 'true' || text === 'yes' || text === '1' || text === 'active') return true;
  if (text === 'false' || text === 'no' || text === '0' || text === 'inactive') return false;
  return undefined;
}

export const CSV_BOOLEAN_FORMAT = 'must be TRUE or FALSE (any case; yes/no, 1/0 and active/inactive are read too)';

/** What a spreadsheet makes of a long number shown in a General cell: `1.23457E+11`. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;

/** Whether a cell holds a number in scientific notation, which a person never types into a phone number. */
export const isScientificNotation = (cell: string) => SCIENTIFIC.test(cell.trim());
