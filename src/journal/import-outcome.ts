// What an import does to each contact its rows name, predicted from the rows as they were sent:
// the journal keeps it instead of reading the workspace again after the import (a read that cost
// as much CPU as the import itself when every contact is new). Each valid row the local check reads
// is laid over the contact's values as the server's import applies it (contacts/plan.ts applyRow:
// rows in file order, an empty cell keeps the stored value, groups joined), without what the run
// left out of it (the plan's held cells, or the whole row). What the workspace held before is only
// known once the before-images are in (the plan's read, or the lookups of a large workspace), so
// each number keeps the values its rows set, laid over its before-image at the end. `wsm undo`
// then finds each contact by its number and compares it with this prediction: a row the server
// refused, or an edit made since, shows as a value the prediction lacks, and is flagged.
// The finished import's counts follow the same rows (commands/imports/import-tally.ts) and are not
// this: they need no new contact's values, and the stored contacts are known before the first row
// there, so each row is applied at once; they drop groups and fields the contacts do not show.
import type { Contact, ImportError, ImportRow } from '../api/schemas/index.js';
import type { CheckedRow } from '../cli/csv-check.js';
import { applyRow, copyOf, createdState, stateOf, type ContactState, type RowSets } from '../commands/contacts/plan.js';
import { type HeldCells, importRowSets } from '../commands/imports/import-plan.js';
import { serverFailed } from '../commands/imports/rejects.js';
import type { Context } from '../cli/context.js';
import { journalOff } from './journal.js';
import { MAX_RECORDS } from './journal-files.js';

/** Rows followed at first; the arrays double as they fill. */
const FIRST_ROWS = 1024;

export class ImportOutcome {
  // A row costs its checked value and a few typed-array writes, no object of its own: a million
  // rows are followed while the server works, and each object kept alive costs the collector a
  // copy (docs/benchmarks.md).
  /** Each row's value (the check's), in file order. */
  private readonly values: ImportRow[] = [];
  /** Each row's row and line, as the check named it: where the server's errors point. */
  private rows = new Int32Array(FIRST_ROWS);
  private lines = new Int32Array(FIRST_ROWS);
  /** By number, its row's entry, or its rows' entries in file order. */
  private readonly entries = new Map<string, number | number[]>();

  /**
   * `held`: what the run leaves out, by row (filled by the plan as the rows are read, or by the
   * pass before, and kept); `sheet`: the rows are a sheet's, which the server's errors name by
   * sheet row (a CSV's by the line each starts on).
   */
  constructor(
    private readonly held: HeldCells,
    private readonly sheet: boolean,
  ) {}

  /** `read`, then this outcome's add: for a check whose rows a plan reads too (the plan first, so that what it holds is known). */
  following(read: (row: CheckedRow) => void): (row: CheckedRow) => void {
    return (row) => {
      read(row);
      this.add(row);
    };
  }

  /** A row as the check read it (invalid rows are never sent, nor rows the run leaves out whole). */
  readonly add = (row: CheckedRow): void => {
    if (row.value === undefined || this.held.get(row.row) === 'row') return;
    const number = String(row.value.number);
    const known = this.entries.get(number);
    // Past the most records a change keeps, a new number's record would not be kept: it is not
    // followed (one more is, so that the change says it kept the most).
    if (known === undefined && this.entries.size > MAX_RECORDS) return;
    const entry = this.values.length;
    if (entry === this.rows.length) this.grow();
    this.values.push(row.value);
    this.rows[entry] = row.row;
    this.lines[entry] = row.line;
    if (known === undefined) this.entries.set(number, entry);
    else if (typeof known === 'number') this.entries.set(number, [known, entry]);
    else known.push(entry);
  };

  /** The numbers the rows sent name, as the server stores them, in the order first named. */
  numbers(): Iterable<string> {
    return this.entries.keys();
  }

  /**
   * The contact holding `number` once the import applied its rows to `before` (undefined: it had
   * none, and the import creates it, with the name and status the server gives a new contact);
   * `group`: the import's --group, joined by every contact it names.
   */
  after(number: string, before: Contact | undefined, group: string | undefined): ContactState {
    const state = copyOf(stateOf(before));
    const known = this.entries.get(number) ?? [];
    for (const entry of typeof known === 'number' ? [known] : known) applyRow(state, { place: '', sets: this.sentOf(entry) }, true);
    if (group !== undefined && !state.contact_groups.includes(group)) state.contact_groups.push(group);
    return before === undefined ? createdState(state) : state;
  }

  /**
   * The numbers named by rows the server says failed: the import did not apply them, so their
   * contacts are not what the rows predict.
   */
  refused(errors: readonly ImportError[]): Set<string> {
    const by = this.sheet ? 'row' : 'line';
    const failed = serverFailed([...errors], by);
    const numbers = new Set<string>();
    if (failed.size === 0) return numbers;
    const places = by === 'line' ? this.lines : this.rows;
    for (let entry = 0; entry < this.values.length; entry++) if (failed.has(places[entry])) numbers.add(String(this.values[entry].number));
    return numbers;
  }

  /** What an entry's row set, as sent: its held cells left out. */
  private sentOf(entry: number): RowSets {
    const sets = importRowSets(this.values[entry], undefined);
    const held = this.held.get(this.rows[entry]);
    if (held === undefined || held === 'row') return sets;
    for (const key of held) {
      if (key.startsWith('fields.') && sets.fields !== undefined) {
        const { [key.slice('fields.'.length)]: _held, ...others } = sets.fields;
        sets.fields = others;
      } else delete sets[key as 'name' | 'email' | 'gender'];
    }
    return sets;
  }

  private grow(): void {
    const rows = new Int32Array(this.rows.length * 2);
    rows.set(this.rows);
    this.rows = rows;
    const lines = new Int32Array(this.lines.length * 2);
    lines.set(this.lines);
    this.lines = lines;
  }
}

/**
 * What an import's rows sent do to each contact, to be followed as its check reads them (add,
 * following), for the journal: undefined under WSM_HISTORY=off, where nothing is kept. `held`
 * and `sheet` as ImportOutcome takes them.
 */
export function followedOutcome(ctx: Context, held: HeldCells, sheet: boolean): ImportOutcome | undefined {
  return journalOff(ctx) ? undefined : new ImportOutcome(held, sheet);
}
