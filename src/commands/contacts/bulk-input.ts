// What `contacts delete --from` and `contacts update --from` read: contact ids one a line (as
// `contacts list -q` prints them), or a CSV with an `id` column and, for an update, the columns to
// change, in the format `contacts export` writes and `contacts import` reads (decisions.md §3:
// name, email, gender, status, contact_groups as a JSON array of group names, then one column per
// custom field). Every item is checked before anything is sent: a bad line is exit 2 naming it.
// A row is a line, read as import files are (one reader: src/api/import-csv.ts), so its line
// number is the file's.
import { csvTextRows, headerName } from '../../api/import-csv.js';
import { check, contactUpdateBody, groupNamesCell, type ContactUpdateBody } from '../../api/schemas/index.js';
import { LocalValidationError, UsageError } from '../../cli/errors.js';

export interface BulkItem {
  id: string;
  /** Line of the input it came from (1-based), for messages. */
  line: number;
  /** The update to send (update only). */
  body?: ContactUpdateBody;
  /** The groups a `contact_groups` cell names: the contact's groups become these (resolveGroupNames turns them into ids). */
  groupNames?: string[];
}

/** Columns of an export that are not the contact's to change. */
const READ_ONLY = new Set(['number', 'workspace_id', 'avatar_url', 'created_at', 'updated_at']);
const KNOWN = new Set(['name', 'email', 'gender', 'status', 'contact_groups']);
const ID = /^\d+$/;

/** What is wrong with a contact id as a record holds it (a whole number from 1 up to what JSON numbers hold exactly). */
function idProblem(text: string): string | undefined {
  if (!ID.test(text) || Number(text) < 1) return `"${text}" is not a contact id (a positive whole number).`;
  if (Number(text) > Number.MAX_SAFE_INTEGER) return `"${text}" is not a contact id (at most ${Number.MAX_SAFE_INTEGER}).`;
  return undefined;
}

export function readBulkInput(text: string, source: string, update?: { flags: ContactUpdateBody | Partial<ContactUpdateBody> }): BulkItem[] {
  const clean = text.replace(/^\uFEFF/, '');
  const lines = clean.split(/\r\n|\n|\r/);
  const firstLine = lines.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (firstLine === undefined) throw new UsageError(`${source} holds no contact ids`);
  const items = ID.test(firstLine.trim()) ? idLines(lines, source) : csvRows(clean, source, update !== undefined);
  if (items.length === 0) throw new UsageError(`${source} holds no contact ids`);
  if (update === undefined) return items;
  return withBodies(items, update.flags, source);
}

function idLines(lines: string[], source: string): BulkItem[] {
  const items: BulkItem[] = [];
  const errors: Record<string, string[]> = {};
  lines.forEach((raw, index) => {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const problem = idProblem(text);
    if (problem === undefined) items.push({ id: text, line: index + 1 });
    else errors[`line ${index + 1}`] = [problem];
  });
  if (Object.keys(errors).length > 0) throw new LocalValidationError(`${source} has lines that are not contact ids: nothing was sent`, errors);
  return items;
}

interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

function csvRows(text: string, source: string, forUpdate: boolean): Array<BulkItem & { cells?: Record<string, string> }> {
  const rows: CsvRow[] = [];
  let header: string[] | undefined;
  const unreadable: Record<string, string[]> = {};
  for (const item of csvTextRows(text)) {
    if (item.kind === 'error') unreadable[`line ${item.line}`] = [item.message];
    else if (header === undefined) header = item.cells.map(headerName);
    else rows.push({ line: item.line, cells: Object.fromEntries(header.map((name, at) => [name, (item.cells[at] ?? '').trim()])) });
  }
  if (Object.keys(unreadable).length > 0) {
    throw new LocalValidationError(`${source} is neither contact ids one a line nor a readable CSV: nothing was sent`, unreadable);
  }
  if (!header?.includes('id')) throw new LocalValidationError(`${source} has no "id" column: nothing was sent`, { id: ['The header row must have an id column (or give one id a line).'] });
  const errors: Record<string, string[]> = {};
  const items = rows.flatMap((row) => {
    const id = row.cells.id ?? '';
    const problem = idProblem(id);
    if (problem !== undefined) {
      errors[`line ${row.line} id`] = [problem];
      return [];
    }
    return [{ id, line: row.line, ...(forUpdate ? { cells: row.cells } : {}) }];
  });
  if (Object.keys(errors).length > 0) throw new LocalValidationError(`${source} has rows without a contact id: nothing was sent`, errors);
  return items;
}

/** Each row's update: the flags, then the row's non-empty cells (a cell left empty is left as it is). */
function withBodies(items: Array<BulkItem & { cells?: Record<string, string> }>, flags: Partial<ContactUpdateBody>, source: string): BulkItem[] {
  if (flags.name === undefined && items.every((item) => item.cells === undefined)) {
    throw new UsageError(`the API requires the name on every update: give --name, or a CSV in ${source} with an id and a name column`);
  }
  const errors: Record<string, string[]> = {};
  const result = items.map(({ cells, ...item }): BulkItem => {
    const body: Record<string, unknown> = { ...flags };
    const fields: Record<string, string> = { ...(flags.fields ?? {}) };
    for (const [column, value] of Object.entries(cells ?? {})) {
      if (value === '' || column === 'id' || READ_ONLY.has(column)) continue;
      if (column === 'status') body.status = statusOf(value);
      else if (column === 'contact_groups') {
        const names = check(groupNamesCell, value);
        if (names.ok) item.groupNames = names.value;
        else for (const [field, messages] of Object.entries(names.errors)) errors[`line ${item.line} contact_groups${field === 'body' ? '' : `.${field}`}`] = messages;
      } else if (KNOWN.has(column)) body[column] = value;
      else fields[column] = value; // a column named after a custom field, as `contacts export` writes them
    }
    if (Object.keys(fields).length > 0) body.fields = fields;
    if (body.name === undefined) {
      errors[`line ${item.line} name`] = ['The API requires the name on every update: give --name or a name column.'];
      return item;
    }
    const checked = check(contactUpdateBody, body);
    if (!checked.ok) {
      for (const [field, messages] of Object.entries(checked.errors)) errors[`line ${item.line} ${field}`] = messages;
      return item;
    }
    return { ...item, body: body as ContactUpdateBody };
  });
  if (Object.keys(errors).length > 0) throw new LocalValidationError(`${source} has updates the API would refuse: nothing was sent`, errors);
  return result;
}

/**
 * Turns the group names of each item into the ids to send, from the workspace's groups by name.
 * A name the workspace lacks is exit 2 naming its line, nothing sent: an update sets the groups
 * it is given and creates none (`contacts import` creates them).
 */
export function resolveGroupNames(items: BulkItem[], idsByName: ReadonlyMap<string, number>, source: string): BulkItem[] {
  const errors: Record<string, string[]> = {};
  const resolved = items.map((item) => {
    if (item.groupNames === undefined || item.body === undefined) return item;
    const missing = item.groupNames.filter((name) => !idsByName.has(name));
    if (missing.length > 0) {
      errors[`line ${item.line} contact_groups`] = missing.map((name) => `No contact group is named "${name}" (\`wsm groups create\` makes one).`);
      return item;
    }
    return { ...item, body: { ...item.body, contact_groups: item.groupNames.map((name) => idsByName.get(name)!) } };
  });
  if (Object.keys(errors).length > 0) throw new LocalValidationError(`${source} names contact groups this workspace does not have: nothing was sent`, errors);
  return resolved;
}

/** `true/false`, `1/0`, `yes/no` or `active/inactive`, as a spreadsheet may write them. */
function statusOf(value: string): unknown {
  const text = value.toLowerCase();
  if (['true', '1', 'yes', 'active'].includes(text)) return true;
  if (['false', '0', 'no', 'inactive'].includes(text)) return false;
  return value;
}
