// What `contacts delete --from` and `contacts update --from` read: contact ids one a line (as
// `contacts list -q` prints them), or a CSV with an `id` column and, for an update, the columns to
// change, in the format `contacts export` writes and `contacts import` reads (decisions.md §3:
// name, email, gender, status, contact_groups as a JSON array of group names, then one column per
// custom field). Every item is checked before anything is sent: a bad line is exit 2 naming it.
// The input is read as import files are (one reader, src/api/import-csv.ts: its encoding checked
// whole, a semicolon or tab separator read and named, quoted values over several lines), so a
// row's line number is the file's.
import { CsvEncodingError, decodeBytes, type TextEncoding } from '../../formats/csv/encoding.js';
import { readCsvBoolean } from '../../formats/csv/cells.js';
import { type CsvItem, csvTextRows, formatNotes, headerName } from '../../api/import-csv.js';
import { refuseRepeatedColumns } from '../../cli/repeated-columns.js';
import { canonicalId, ID, idProblem, Refusals } from './bulk-ids.js';
import { check, contactUpdateBody, groupNamesCell, type ContactUpdateBody } from '../../api/schemas/index.js';
import { encodingRefusal, type FieldIds } from '../../cli/csv-check.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { didYouMean } from '../../cli/similar.js';

/** An update whose `name` is not known yet: the contact keeps the name it has (bulk.ts reads it). */
export type PendingUpdate = Omit<ContactUpdateBody, 'name'> & { name?: string };

export interface BulkItem {
  id: string;
  /** Line of the input it came from (1-based), for messages. */
  line: number;
  /** How messages name it: `line 3`, or `row 3` for a spreadsheet's row. */
  where: string;
  /** The update to send (update only); without a name until it is read from the server. */
  body?: PendingUpdate;
  /** The groups a `contact_groups` cell names: the contact's groups become these (resolveGroupNames turns them into ids). */
  groupNames?: string[];
  /** The row's `number` cell: not sent (an update does not change a number), compared with the contact's by the plan. */
  number?: string;
  /** Columns the row leaves empty that cannot be emptied (`name`, `status`): the contact keeps them, and the plan says so. */
  emptied?: string[];
  /** Several rows naming this contact, merged (bulk-merge.ts): their places, in input order. */
  merged?: string[];
}

/** Columns of an export that are not the contact's to change. */
const READ_ONLY = new Set(['number', 'workspace_id', 'avatar_url', 'created_at', 'updated_at']);
const KNOWN = new Set(['name', 'email', 'gender', 'status', 'contact_groups']);
export interface BulkInput {
  items: BulkItem[];
  /** What is said about how it was read (a UTF-16 or semicolon-separated CSV). */
  notes: string[];
  /** A CSV's header names as read (trimmed, lowercase); none for ids one a line. */
  columns: string[];
}

/** The input's items, how it was read, and its columns. */
export function readBulkInput(bytes: Uint8Array | SheetInput, source: string, update?: { flags: Partial<ContactUpdateBody> }): BulkInput {
  const columns: string[] = [];
  if ('rowNotes' in bytes) {
    const notes: string[] = [];
    const items = itemsOf(bytes.items, (item) => `row ${item.row}`, source, update !== undefined, columns);
    if (items.length === 0) throw new UsageError(`${source} holds no contact ids`);
    return { items: update === undefined ? items : withBodies(items, update.flags, source), notes, columns };
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw new UsageError(
      `${source} is a ZIP archive (a spreadsheet?): a workbook is read from a file whose name ends .xlsx, such as --from contacts.xlsx`,
    );
  }
  let text: string;
  let encoding: TextEncoding;
  try {
    ({ text, encoding } = decodeBytes(bytes));
  } catch (error) {
    if (!(error instanceof CsvEncodingError)) throw error;
    throw encodingRefusal(source, error.problem);
  }
  const lines = text.split(/\r\n|\n|\r/);
  const firstLine = lines.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (firstLine === undefined) throw new UsageError(`${source} holds no contact ids`);
  const notes: string[] = [];
  const items = ID.test(firstLine.trim())
    ? idLines(lines, source)
    : csvRows(text, encoding, source, update !== undefined, { notes, columns });
  if (items.length === 0) throw new UsageError(`${source} holds no contact ids`);
  if (update === undefined) return { items, notes, columns };
  return { items: withBodies(items, update.flags, source), notes, columns };
}

function idLines(lines: string[], source: string): BulkItem[] {
  const items: BulkItem[] = [];
  const refusals = new Refusals();
  lines.forEach((raw, index) => {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const problem = idProblem(text);
    if (problem === undefined) items.push({ id: canonicalId(text), line: index + 1, where: `line ${index + 1}` });
    else refusals.add(`line ${index + 1}`, [problem]);
  });
  refusals.throwAny(`${source} has lines that are not contact ids`);
  return items;
}

interface CsvRow {
  line: number;
  where: string;
  cells: Record<string, string>;
}

/** A sheet's rows as a CSV's reader gives them (cli/sheet-rows.ts): values as the sheet holds them, rows named by their sheet row. */
export interface SheetInput {
  items: CsvItem[];
  /** Notes on cells read otherwise than shown, by sheet row (for the plan). */
  rowNotes: ReadonlyMap<number, string[]>;
}

function csvRows(
  text: string,
  encoding: TextEncoding,
  source: string,
  forUpdate: boolean,
  read: { notes: string[]; columns: string[] },
): Array<BulkItem & { cells?: Record<string, string> }> {
  const csv = csvTextRows(text, 'id', encoding);
  read.notes.push(...formatNotes(csv.format));
  return itemsOf(csv.items, (item) => `line ${item.line}`, source, forUpdate, read.columns);
}

/** The items of rows read (a CSV's, or a sheet's), header first, each named by `whereOf`. */
function itemsOf(
  csvItems: CsvItem[],
  whereOf: (item: CsvItem) => string,
  source: string,
  forUpdate: boolean,
  columns: string[],
): Array<BulkItem & { cells?: Record<string, string> }> {
  const rows: CsvRow[] = [];
  let header: string[] | undefined;
  const unreadable = new Refusals();
  for (const item of csvItems) {
    if (item.kind === 'error') unreadable.add(whereOf(item), [item.message]);
    else if (header === undefined) header = item.cells.map(headerName);
    else
      rows.push({
        line: item.line,
        where: whereOf(item),
        cells: Object.fromEntries(header.map((name, at) => [name, (item.cells[at] ?? '').trim()])),
      });
  }
  unreadable.throwAny(`${source} is neither contact ids one a line nor a readable CSV`);
  columns.push(...(header ?? []));
  refuseRepeatedColumns(header ?? [], source);
  if (!header?.includes('id'))
    throw new RequestValidationError(`${source} has no "id" column: nothing was sent`, {
      id: ['The header row must have an id column (or give one id a line).'],
    });
  const refusals = new Refusals();
  const items = rows.flatMap((row) => {
    const id = row.cells.id ?? '';
    const problem = idProblem(id);
    if (problem !== undefined) {
      refusals.add(row.where, [problem], `${row.where} id`);
      return [];
    }
    return [{ id: canonicalId(id), line: row.line, where: row.where, ...(forUpdate ? { cells: row.cells } : {}) }];
  });
  refusals.throwAny(`${source} has rows without a contact id`);
  return items;
}

/**
 * An empty cell in an update file clears what may be empty (docs/decisions.md): the e-mail and
 * the gender become null, a custom field is removed, `contact_groups` leaves every group. A
 * contact always has a name and a status: those are kept, and the plan says so. A value the flags
 * give stays: the flags are every row's.
 */
function emptiedCell(column: string, body: Record<string, unknown>, fields: Record<string, string>, item: BulkItem): void {
  if (column === 'name' || column === 'status') {
    if (body[column] === undefined) item.emptied = [...(item.emptied ?? []), column];
  } else if (column === 'email' || column === 'gender') body[column] ??= null;
  else if (column === 'contact_groups') {
    if (body.contact_groups === undefined) item.groupNames = [];
  } else fields[column] ??= '';
}

/**
 * Each row's update: the flags, then the row's cells (an empty one clears: emptiedCell). Without
 * --name or a name in the row, the update has no name yet: the contact keeps its own.
 */
function withBodies(
  items: Array<BulkItem & { cells?: Record<string, string> }>,
  flags: Partial<ContactUpdateBody>,
  source: string,
): BulkItem[] {
  if (Object.keys(flags).length === 0 && items.every((item) => item.cells === undefined)) {
    throw new UsageError(
      `nothing to change: give the changes as flags (--inactive, --email, ...), or a CSV in ${source} with an id column and the columns to change`,
    );
  }
  const refusals = new Refusals();
  const result = items.map(({ cells, ...item }): BulkItem => {
    const body: Record<string, unknown> = { ...flags };
    const fields: Record<string, string> = { ...(flags.fields ?? {}) };
    for (const [column, value] of Object.entries(cells ?? {})) {
      if (column === 'number' && value !== '') item.number = value;
      if (column === '' || column === 'id' || READ_ONLY.has(column)) continue;
      if (value === '') {
        emptiedCell(column, body, fields, item);
        continue;
      }
      // The CSV's own reading of a status and a gender, as the import reads them (formats/csv/cells.ts).
      if (column === 'status') body.status = readCsvBoolean(value) ?? value;
      else if (column === 'gender') body.gender = value.trim().toLowerCase();
      else if (column === 'contact_groups') {
        const names = check(groupNamesCell, value);
        if (names.ok) item.groupNames = names.value;
        else
          for (const [field, messages] of Object.entries(names.errors))
            refusals.add(item.where, messages, `${item.where} contact_groups${field === 'body' ? '' : `.${field}`}`);
      } else if (KNOWN.has(column)) body[column] = value;
      else fields[column] = value; // a column named after a custom field, as `contacts export` writes them
    }
    if (Object.keys(fields).length > 0) body.fields = fields;
    // A name read from the server later is the contact's own: only a name given here is checked.
    const checked = check(contactUpdateBody, body.name === undefined ? { ...body, name: 'kept' } : body);
    if (!checked.ok) {
      for (const [field, messages] of Object.entries(checked.errors)) refusals.add(item.where, messages, `${item.where} ${field}`);
      return item;
    }
    // The body as checked is the body as sent (text trimmed, in composed form: NFC): the plan
    // compares that with the contact, so a name typed with a combining accent is no change.
    const { name: _kept, ...sent } = checked.value;
    return { ...item, body: body.name === undefined ? sent : checked.value };
  });
  refusals.throwAny(`${source} has updates the API would refuse`);
  return result;
}

/**
 * Turns the group names of each item into the ids to send, from the workspace's groups by name.
 * A name the workspace lacks is exit 2 naming its line, nothing sent: an update sets the groups
 * it is given and creates none (`contacts import` creates them).
 */
export function resolveGroupNames(items: BulkItem[], idsByName: ReadonlyMap<string, number>, source: string): BulkItem[] {
  const refusals = new Refusals();
  const resolved = items.map((item) => {
    if (item.groupNames === undefined || item.body === undefined) return item;
    const missing = item.groupNames.filter((name) => !idsByName.has(name));
    if (missing.length > 0) {
      refusals.add(
        item.where,
        missing.map((name) => `No contact group is named "${name}" (\`wsm groups create\` makes one).`),
        `${item.where} contact_groups`,
      );
      return item;
    }
    return { ...item, body: { ...item.body, contact_groups: item.groupNames.map((name) => idsByName.get(name)!) } };
  });
  refusals.throwAny(`${source} names contact groups this workspace does not have`);
  return resolved;
}

/** The names a column or `--field` gives that are no contact attribute: custom fields, which the workspace must have. */
export function fieldNamesOf(columns: string[], flags: Partial<ContactUpdateBody>): Array<{ name: string; label: string }> {
  const named = columns.filter((column) => column !== '' && column !== 'id' && !KNOWN.has(column) && !READ_ONLY.has(column));
  return [
    ...named.map((name) => ({ name, label: `column "${name}"` })),
    ...Object.keys(flags.fields ?? {}).map((name) => ({ name, label: `--field ${name}` })),
  ];
}

/**
 * A column (or `--field`) naming no contact field of the workspace is exit 2, nothing sent, in
 * the words the server refuses a field with, and the names close to it: a misspelt column would
 * otherwise fail every row with the server's 422.
 */
export function refuseUnknownFields(names: Array<{ name: string; label: string }>, fields: FieldIds, source: string): void {
  const known = ['id', ...KNOWN, ...READ_ONLY, ...fields.keys()];
  const errors: Record<string, string[]> = {};
  for (const { name, label } of names)
    if (!fields.has(name.toLowerCase()))
      errors[label] = [`The ${name} field is not a contact field of this workspace${didYouMean(name.toLowerCase(), known)}.`];
  const count = Object.keys(errors).length;
  if (count > 0)
    throw new RequestValidationError(
      `${source} names ${count === 1 ? 'a contact field' : 'contact fields'} this workspace does not have: nothing was sent`,
      errors,
    );
}
