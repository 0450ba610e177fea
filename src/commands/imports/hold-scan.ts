// Whether an import's plan can hold anything, known from a quick read of the file's cells and of the
// workspace's values, before the plan itself is made. A plan holds a cell only when
// spreadsheetDamage (contacts/plan.ts) finds one: a new value in scientific notation, or a value
// with leading zeros or of 16 digits or more written over by what a spreadsheet makes of it; it
// leaves a row out only for a new number beside a stored one with leading zeros. When no cell of
// the file and no stored value looks like any of those, the plan holds nothing whatever it finds:
// the file goes as it is, at once, and the plan is made while the server works through it
// (upload.ts). The file's side is looser than the plan's (any part of a cell, before the check
// trims it), so that it never says "nothing" where the plan would hold something; it reads the
// text as the file's encoding check decodes it first, and the cells (columns known) only when the
// text alone cannot tell (a number column of `0044…` numbers).
import { type CsvItem, openCsv } from '../../api/import-csv.js';
import { planColumns } from '../../api/import-columns.js';
import { damageable, type LiveContacts } from '../contacts/plan.js';

/** Any part of a cell a plan may read as damage or as damageable: `1E+12`, a run of digits led by 0, 16 digits in a row. */
const LOOKS_DAMAGED = /\d[eE][+-]?\d|(?:^|\D)0\d|\d{16}/;

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Whether a cell of the file may be, or be written over as, a change a spreadsheet made: what
 * LOOKS_DAMAGED finds, in one loop over the characters (a million rows' cells cost a third of the
 * regular expression's time, which tries each of its three forms at every character).
 */
export function cellMayHold(cell: string): boolean {
  let digits = 0;
  for (let i = 0; i < cell.length; i++) {
    const code = cell.charCodeAt(i);
    if (isDigit(code)) {
      digits += 1;
      // `\d{16}`, then `(?:^|\D)0\d`
      if (digits >= 16 || (code === 48 && digits === 1 && isDigit(cell.charCodeAt(i + 1)))) return true;
      continue;
    }
    // `\d[eE][+-]?\d`
    if (digits > 0 && (code === 69 || code === 101)) {
      const next = cell.charCodeAt(i + 1);
      if (isDigit(next) || ((next === 43 || next === 45) && isDigit(cell.charCodeAt(i + 2)))) return true;
    }
    digits = 0;
  }
  return false;
}

/** The most characters one match of LOOKS_DAMAGED spans, carried from a chunk of text to the next. */
const SPAN = 17;

/**
 * The file's text as it is decoded for its check, a chunk at a time: when nothing in all of it
 * looks like damage (columns aside), no cell does either, and the cells need no reading of their
 * own. `mayHold` is true once anything does.
 */
export function textScan(): { feed(text: string): void; readonly mayHold: boolean } {
  let carried = '';
  let mayHold = false;
  return {
    feed(text) {
      if (mayHold) return;
      const seen = carried + text;
      mayHold = LOOKS_DAMAGED.test(seen);
      carried = seen.slice(-SPAN);
    },
    get mayHold() {
      return mayHold;
    },
  };
}

/** Whether the workspace holds a value a row may damage, or a number a new one may stand beside (leading zeros). */
export function liveMayHold(live: LiveContacts): boolean {
  if (live.byUnpadded.size > 0) return true;
  for (const contact of live.byNumber.values()) {
    if (damageable(contact.name) || damageable(contact.email) || damageable(contact.gender)) return true;
    if (Object.values(contact.fields ?? {}).some(damageable)) return true;
  }
  return false;
}

/**
 * Reads rows, header first, for a cell that may make a plan hold something: true once one does.
 * The number, the groups and the status are never held (a number only beside a stored one:
 * liveMayHold).
 */
function rowReader(): (row: CsvItem) => boolean {
  let never: Set<number> | undefined;
  return (row) => {
    if (row.kind === 'error') return false;
    if (never === undefined) {
      const { number, contact_groups, status } = planColumns(row.cells).contact;
      never = new Set([number, contact_groups, status].filter((index) => index !== undefined));
      return false;
    }
    const { cells } = row;
    for (let i = 0; i < cells.length; i++) if (!never.has(i) && cellMayHold(cells[i])) return true;
    return false;
  };
}

/** Whether a cell of the CSV (a file the header check accepted) may make a plan hold something. */
export async function fileMayHold(csv: string): Promise<boolean> {
  const file = await openCsv(csv);
  const mayHold = rowReader();
  try {
    for await (const batch of file.batches) if (batch.some(mayHold)) return true;
    return false;
  } finally {
    await file.close();
  }
}

/** Whether a cell of rows already read (a sheet's) may make a plan hold something. */
export const itemsMayHold = (items: CsvItem[]): boolean => items.some(rowReader());
