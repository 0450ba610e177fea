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
import type { Contact, ImportError } from '../api/schemas/index.js';
import type { CheckedRow } from '../cli/csv-check.js';
import { applyRow, copyOf, createdState, stateOf, type ContactState, type RowSets } from '../commands/contacts/plan.js';
import { type HeldCells, importRowSets } from '../commands/imports/import-plan.js';
import { serverFailed } from '../commands/imports/rejects.js';
import type { Context } from '../cli/context.js';
import { journalOff } from './journal.js';

/** One row as sent (the held cells left out), and where it is: which contact a row the server refused names. */
interface SentRow {
  sets: RowSets;
  row: number;
  line: number;
}

export class ImportOutcome {
  /** By number, its rows in file order. */
  private readonly sent = new Map<string, SentRow[]>();

  /**
   * `held`: what the run leaves out, by row (filled by the plan as the rows are read, or by the
   * pass before); `sheet`: the rows are a sheet's, which the server's errors name by sheet row (a
   * CSV's by the line each starts on).
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

  /** A row as the check read it (invalid rows are never sent, and left out). */
  readonly add = (row: CheckedRow): void => {
    if (row.value === undefined) return;
    const held = this.held.get(row.row);
    if (held === 'row') return;
    const number = String(row.value.number);
    const sets = importRowSets(row.value, undefined);
    if (held !== undefined)
      for (const key of held) {
        if (key.startsWith('fields.') && sets.fields !== undefined) {
          const { [key.slice('fields.'.length)]: _held, ...others } = sets.fields;
          sets.fields = others;
        } else delete sets[key as 'name' | 'email' | 'gender'];
      }
    const sent = { sets, row: row.row, line: row.line };
    const rows = this.sent.get(number);
    if (rows === undefined) this.sent.set(number, [sent]);
    else rows.push(sent);
  };

  /** The numbers the rows sent name, as the server stores them, in the order first named. */
  numbers(): Iterable<string> {
    return this.sent.keys();
  }

  /**
   * The contact holding `number` once the import applied its rows to `before` (undefined: it had
   * none, and the import creates it, with the name and status the server gives a new contact);
   * `group`: the import's --group, joined by every contact it names.
   */
  after(number: string, before: Contact | undefined, group: string | undefined): ContactState {
    const state = copyOf(stateOf(before));
    for (const { sets } of this.sent.get(number) ?? []) applyRow(state, { place: '', sets }, true);
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
    for (const [number, rows] of this.sent) if (rows.some((sent) => failed.has(by === 'line' ? sent.line : sent.row))) numbers.add(number);
    return numbers;
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
