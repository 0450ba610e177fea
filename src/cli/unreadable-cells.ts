// Cells the local check refuses where nothing shows the server would: a contact_groups or custom
// field cell it cannot read, on a server whose contacts do not show that column; on a server whose
// rules are not known to be wsm serve's, an e-mail that is an address under a looser reading, a
// name of nothing but invisible characters (the published API says only "max 50"), and values
// beyond the header's columns. Such a row is no invalid one: it is checked on its other
// cells, and the cells go as written, said as not known (docs/import-file.md, "Cells a server of
// unknown rules may take").
import { CONTACT_NAME_MAX, check, importRow, type FieldErrors, type ImportRow } from '../api/schemas/index.js';

/** Which of groups and custom fields a server's contacts show (contacts/plan-unshown.ts Shown). */
interface ShownColumns {
  contact_groups: boolean;
  fields: boolean;
}

/** What a server's contacts show, asked when a row first needs it (one answer for the whole file). */
type AskShown = () => Promise<ShownColumns>;

/** What the check asks of the server for a row it refuses, each once for the whole file. */
export interface ServerReading {
  shown: AskShown;
  /** Whether the server is known to check rows as wsm does (it has wsm serve's extensions). */
  wsmRules: () => Promise<boolean>;
}

/** The plan key of values beyond the header's columns. */
export const BEYOND_HEADER = 'extra_values';

/**
 * An address under any reading: one @, neither side empty, no whitespace or control character, a
 * dot inside the domain. Looser than wsm's own rule (api/schemas/common.ts), which a server of
 * unknown rules may not keep.
 */
const LOOSE_EMAIL = /^[^@\s\p{Cc}]+@[^@\s\p{Cc}]+\.[^@\s\p{Cc}]+$/u;

/** Why a name of invisible characters alone is sent: the cell looks empty, yet it is no empty cell that keeps the name. */
const INVISIBLE_NAME =
  "The name holds no visible character: wsm serve refuses it as empty; this server may store it as the contact's name.";

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

/** The column (plan key) of an error's key (`contact_groups.0` is `contact_groups`), when it is a groups, field, email or name column. */
function columnOf(key: string): string | undefined {
  if (key === 'contact_groups' || key.startsWith('contact_groups.')) return 'contact_groups';
  if (key === 'email' || key === 'name') return key;
  return /^fields\.[^.]+$/.test(key) ? key : undefined;
}

/** Whether the server may take a refused cell of `column`, as far as `reading` tells. */
async function mayTake(column: string, cell: unknown, reading: ServerReading): Promise<boolean> {
  if (column === 'email') return LOOSE_EMAIL.test(String(cell)) && !(await reading.wsmRules());
  // Refused for being invisible alone: a name too long is refused by the published limit too.
  if (column === 'name') return String(cell).trim().length <= CONTACT_NAME_MAX && !(await reading.wsmRules());
  const shown = await reading.shown();
  return !(column === 'contact_groups' ? shown.contact_groups : shown.fields);
}

/**
 * A row `importRow` refused only for cells the server may take (above): its value without them
 * (an e-mail kept as written), and those cells. Undefined when another cell is refused too, or
 * the server is known to refuse one of them.
 */
export async function withoutUnreadable(
  input: Record<string, unknown>,
  errors: FieldErrors,
  reading: ServerReading,
): Promise<{ value: ImportRow; cells: Record<string, UnreadableCell> } | undefined> {
  const why = new Map<string, string[]>();
  for (const [key, messages] of Object.entries(errors)) {
    const column = columnOf(key);
    if (column === undefined) return undefined;
    why.set(column, [...(why.get(column) ?? []), ...messages]);
  }
  const rest: Record<string, unknown> = { ...input };
  const fields = { ...(input.fields as Record<string, string> | undefined) };
  const cells: Record<string, UnreadableCell> = {};
  for (const [column, messages] of why) {
    const name = column.startsWith('fields.') ? column.slice('fields.'.length) : undefined;
    const cell = name === undefined ? input[column] : fields[name];
    if (!(await mayTake(column, cell, reading))) return undefined;
    cells[column] = { cell: String(cell), why: column === 'name' ? INVISIBLE_NAME : messages.join(' ') };
    if (name === undefined) delete rest[column];
    else delete fields[name];
  }
  if (Object.keys(fields).length > 0) rest.fields = fields;
  else delete rest.fields;
  const again = check(importRow, rest);
  if (!again.ok) return undefined;
  // Planned as given: the server of unknown rules stores the address, and the name, as the row writes them.
  if (cells.email !== undefined) again.value.email = cells.email.cell;
  if (cells.name !== undefined) again.value.name = cells.name.cell.trim();
  return { value: again.value, cells };
}
