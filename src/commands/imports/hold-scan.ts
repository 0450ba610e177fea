// Whether an import's plan can hold anything, known from a quick read of the file's cells and of the
// workspace's values, before the plan itself is made. A plan holds a cell only when
// spreadsheetDamage (contacts/spreadsheet-damage.ts) finds one: a new value in scientific notation, or a value
// with leading zeros, of 16 digits or more, or a number, date or time in a format a spreadsheet rewrites (`1.50`, `Jan 5`),
// written over by what a spreadsheet makes of it (damageable: the stored side); it
// leaves a row out only for a new number beside one with more leading zeros, stored or of the same file
// (padded-twins.ts, which this read finds), or written as a spreadsheet's decimal (`447911123458.00`). When no cell of the file and no stored value looks like
// any of those, the plan holds nothing whatever it finds: the file goes as it is, at once, and the
// plan is made while the server works through it (upload.ts). The file's side is looser than the
// plan's (any part of a cell, before the check trims it), so that it never says "nothing" where the
// plan would hold something; it reads the text as the file's encoding check decodes it first, and
// the cells (columns known) only when the text alone cannot tell (a number column of `0044…` numbers).
import { type CsvItem, hasCells, openCsv } from '../../api/import-csv.js';
import { planColumns } from '../../api/import-columns.js';
import { normalizeNumber } from '../../api/schemas/index.js';
import type { LiveContacts } from '../contacts/plan.js';
import { damageable, spreadsheetDecimal } from '../contacts/spreadsheet-damage.js';
import { PaddedTwins } from '../contacts/padded-twins.js';
import { inTurns } from '../../cli/loop-turns.js';

/** Any part of a cell a plan may read as damage or as damageable: `1E+12`, a run of digits led by 0, 16 digits in a row. */
const LOOKS_DAMAGED = /\d[eE][+-]?\d|(?:^|\D)0\d|\d{16}/;
/** Any part of the text a number cell written as a spreadsheet's decimal holds (`8.0`): the cells are then read. */
const DECIMAL_POINT = /\d\.0/;

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
 * A zero that may lead a number cell as the server stores it (normalizeNumber takes off spaces,
 * dashes, dots and parentheses): after a character that is no digit, before a digit, the
 * separators between aside.
 */
const LEADING_ZERO = /\D0[\s\-.()]*\d/;
const SEPARATOR = /[\s\-.()]/;

/** The end of a chunk the next one may complete into a LEADING_ZERO: from a non-digit and a zero over any separators, else its last character. */
function openZero(text: string): string {
  let end = text.length;
  while (end > 0 && SEPARATOR.test(text[end - 1])) end--;
  return end >= 2 && text[end - 1] === '0' && !isDigit(text.charCodeAt(end - 2)) ? text.slice(end - 2) : text.slice(-1);
}

/**
 * The file's text as it is decoded for its check, a chunk at a time: when nothing in all of it
 * looks like damage (columns aside), no cell does either, and the cells need no reading of their
 * own. `mayHold` is true once anything does; `padded` once a number may have leading zeros
 * (then the numbers are read for twins: padded-twins.ts).
 */
export function textScan(): { feed(text: string): void; readonly mayHold: boolean; readonly padded: boolean } {
  let carried = '';
  let mayHold = false;
  let padded = false;
  let open = '';
  return {
    feed(text) {
      if (!mayHold) {
        const seen = carried + text;
        mayHold = LOOKS_DAMAGED.test(seen) || DECIMAL_POINT.test(seen);
        carried = seen.slice(-SPAN);
      }
      if (!padded) {
        const seen = open + text;
        padded = LEADING_ZERO.test(seen);
        open = openZero(seen);
      }
    },
    get mayHold() {
      return mayHold;
    },
    get padded() {
      return padded;
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

/** What the quick read of a file found: whether its plan may hold anything, and its numbers written with and without leading zeros. */
export interface FileScan {
  mayHold: boolean;
  /** The number without leading zeros -> one with them (padded-twins.ts): those rows are left out as the plan says. */
  twins: ReadonlyMap<string, string>;
}

/**
 * Reads rows, header first: `cells` is true once a cell may make a plan hold something (the
 * groups and the status are never held; a number is, where it is written as a decimal, or beside a
 * padded one: liveMayHold and `twins`); every number goes to `twins` when given.
 */
function rowReader(twins: PaddedTwins | undefined): { read(row: CsvItem): void; cells: boolean } {
  let never: Set<number> | undefined;
  let numberAt = 0;
  const reader = {
    cells: false,
    read(row: CsvItem) {
      if (!hasCells(row)) return;
      if (never === undefined) {
        const { number, contact_groups, status } = planColumns(row.cells).contact;
        never = new Set([number, contact_groups, status].filter((index) => index !== undefined));
        numberAt = number ?? 0;
        return;
      }
      const { cells } = row;
      twins?.add(normalizeNumber(cells[numberAt] ?? ''));
      if (reader.cells) return;
      // The number is held only where it is new: the workspace's numbers are not read here, so a decimal always may hold.
      if (spreadsheetDecimal(cells[numberAt] ?? '')) {
        reader.cells = true;
        return;
      }
      for (let i = 0; i < cells.length; i++)
        if (!never.has(i) && cellMayHold(cells[i])) {
          reader.cells = true;
          return;
        }
    },
  };
  return reader;
}

const scanOf = (reader: { cells: boolean }, twins: PaddedTwins | undefined): FileScan => {
  const found = twins?.twins() ?? new Map<string, string>();
  return { mayHold: reader.cells || found.size > 0, twins: found };
};

/**
 * Reads the cells of the CSV (a file the header check accepted): whether one may make a plan hold
 * something, and, with `padded` (the text may hold a number with leading zeros), every number
 * for its twins; without, it stops at the first cell that may hold.
 */
async function scanFile(csv: string, padded: boolean): Promise<FileScan> {
  const file = await openCsv(csv);
  const twins = padded ? new PaddedTwins() : undefined;
  const reader = rowReader(twins);
  try {
    for await (const batch of file.batches) {
      for (const row of batch) reader.read(row);
      if (reader.cells && twins === undefined) break;
    }
    return scanOf(reader, twins);
  } finally {
    await file.close();
  }
}

/** The scan of a CSV whose text `text` read as it was decoded: its cells are read only where the text cannot tell. */
export async function scanCsv(csv: string, text: { mayHold: boolean; padded: boolean }): Promise<FileScan> {
  return text.mayHold || text.padded ? scanFile(csv, text.padded) : { mayHold: false, twins: new Map() };
}

/** The same of rows already read (a sheet's). */
export async function scanItems(items: CsvItem[]): Promise<FileScan> {
  const twins = new PaddedTwins();
  const reader = rowReader(twins);
  for await (const batch of inTurns(items)) for (const row of batch) reader.read(row);
  return scanOf(reader, twins);
}
