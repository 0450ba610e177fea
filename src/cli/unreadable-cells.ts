// A contact_groups or custom field cell the local check cannot read, on a server whose contacts do
// not show that column: nothing shows whether its import reads such a cell, so the row is not an
// invalid one. It is checked on its other cells, and the cell goes as written, said as not known
// (docs/import-file.md, "Groups and custom fields on a server that does not show them").
import { check, importRow, type FieldErrors, type ImportRow } from '../api/schemas/index.js';

/** Which of groups and custom fields a server's contacts show (contacts/plan-unshown.ts Shown). */
interface ShownColumns {
  contact_groups: boolean;
  fields: boolean;
}

/** What a server's contacts show, asked when a row first needs it (one answer for the whole file). */
export type AskShown = () => Promise<ShownColumns>;

/** A cell sent as written: its text and why the check could not read it. */
export interface UnreadableCell {
  cell: string;
  why: string;
}

/** Rows said one by one; beyond them a count. */
const FIRST_ROWS = 5;

/** How many rows hold an unreadable cell in each column (by plan key: `contact_groups`, `fields.city`), the first named. */
export type UnreadableCounts = Record<string, { rows: number; first: string[] }>;

/** Counts the unreadable cells of rows as they are read. */
export class UnreadableTally {
  private readonly counts: UnreadableCounts = {};

  add(place: string, cells: Record<string, UnreadableCell>): void {
    for (const key of Object.keys(cells)) {
      const count = (this.counts[key] ??= { rows: 0, first: [] });
      count.rows++;
      if (count.first.length < FIRST_ROWS) count.first.push(place);
    }
  }

  /** The counts, or undefined when no row held such a cell. */
  result(): UnreadableCounts | undefined {
    return Object.keys(this.counts).length > 0 ? this.counts : undefined;
  }
}

/** The column (plan key) of an error's key (`contact_groups.0` is `contact_groups`), when it is a groups or field column. */
function columnOf(key: string): string | undefined {
  if (key === 'contact_groups' || key.startsWith('contact_groups.')) return 'contact_groups';
  return /^fields\.[^.]+$/.test(key) ? key : undefined;
}

/**
 * A row `importRow` refused only for groups or field cells the server's contacts do not show: its
 * value without them, and those cells. Undefined when another cell is refused too, or the server
 * shows the column (its import is then known to refuse the row).
 */
export async function withoutUnreadable(
  input: Record<string, unknown>,
  errors: FieldErrors,
  ask: AskShown,
): Promise<{ value: ImportRow; cells: Record<string, UnreadableCell> } | undefined> {
  const why = new Map<string, string[]>();
  for (const [key, messages] of Object.entries(errors)) {
    const column = columnOf(key);
    if (column === undefined) return undefined;
    why.set(column, [...(why.get(column) ?? []), ...messages]);
  }
  const shown = await ask();
  if ([...why.keys()].some((column) => (column === 'contact_groups' ? shown.contact_groups : shown.fields))) return undefined;
  const rest: Record<string, unknown> = { ...input };
  const fields = { ...(input.fields as Record<string, string> | undefined) };
  const cells: Record<string, UnreadableCell> = {};
  for (const [column, messages] of why) {
    const name = column.slice('fields.'.length);
    cells[column] = { cell: String(column === 'contact_groups' ? input.contact_groups : fields[name]), why: messages.join(' ') };
    if (column === 'contact_groups') delete rest.contact_groups;
    else delete fields[name];
  }
  if (Object.keys(fields).length > 0) rest.fields = fields;
  else delete rest.fields;
  const again = check(importRow, rest);
  return again.ok ? { value: again.value, cells } : undefined;
}
