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
//
// A million rows are followed while the server works, so a row keeps no object: its number, row
// and line go to typed arrays, and what it sets is written at once as JSON into a ByteLog, mostly
// as the record line of the contact it creates (row-values.ts); the check's row is then free to
// die young, and the change's file takes those bytes as they are.
import type { Contact, ImportError } from '../api/schemas/index.js';
import type { CheckedRow } from '../cli/csv-check.js';
import { applyRow, copyOf, createdState, stateOf, type ContactState } from '../commands/contacts/plan.js';
import type { HeldCells } from '../commands/imports/import-plan.js';
import { serverFailed } from '../commands/imports/rejects.js';
import type { Context } from '../cli/context.js';
import { ByteLog } from './byte-log.js';
import { journalOff } from './journal.js';
import { MAX_RECORDS } from './journal-files.js';
import { KeySet, NumberKeys } from './number-keys.js';
import { encodeRow, isCreated, rowSets } from './row-values.js';

export class ImportOutcome {
  private readonly numbers = new NumberKeys();
  /** Each row's values, one after the other (row-values.ts); `ends`: where each row's end. */
  private readonly values = new ByteLog();
  private ends = new Float64Array(NumberKeys.FIRST);
  private kinds = new Uint8Array(NumberKeys.FIRST);
  /** The contact groups the rows sent name (few: a name once), to tell the groups the import made (import-groups.ts). */
  readonly groupNames = new Set<string>();
  /** The numbers followed, sorted, once they are one more than a change keeps: only their rows are followed from then. */
  private full: Float64Array | undefined;
  /** The numbers followed, once a count at the most rows found fewer than that: each later row's is added. */
  private seen: KeySet | undefined;

  /**
   * `held`: what the run leaves out, by row (filled by the plan as the rows are read, or by the
   * pass before, and kept); `sheet`: the rows are a sheet's, which the server's errors name by
   * sheet row (a CSV's by the line each starts on); `most`: the most records a change keeps.
   */
  constructor(
    private readonly held: HeldCells,
    private readonly sheet: boolean,
    private readonly most = MAX_RECORDS,
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
    const held = this.held.get(row.row);
    if (row.value === undefined || held === 'row') return;
    if (row.value.contact_groups !== undefined) for (const name of row.value.contact_groups) this.groupNames.add(name);
    const key = NumberKeys.keyOf(String(row.value.number));
    // Past the most records a change keeps, a new number's record would not be kept: it is not
    // followed (one more is, so that the change says it kept the most).
    if (this.full !== undefined && !NumberKeys.holds(this.full, key)) return;
    const entry = this.numbers.add(key, row.row, row.line);
    if (entry === this.ends.length) this.grow();
    this.kinds[entry] = encodeRow(this.values, row.value, held);
    this.ends[entry] = this.values.length;
    if (this.seen?.add(key) && this.seen.size > this.most) this.stopFollowing(this.seen.sorted());
    else if (entry === this.most) this.countNumbers();
  };

  /** The first entry of each number, in the order first named. */
  contacts(): Iterable<number> {
    return this.numbers.firsts();
  }

  /** The number of an entry, as the server stores it. */
  numberOf(entry: number): string {
    return this.numbers.numberOf(entry);
  }

  /** Each number once (as the server stores it), in the order first named. */
  *allNumbers(): Iterable<string> {
    for (const entry of this.numbers.firsts()) yield this.numbers.numberOf(entry);
  }

  /**
   * The contact holding the number of `entry` (a first entry) once the import applied its rows to
   * `before` (undefined: it had none, and the import creates it, with the name and status the
   * server gives a new contact); `group`: the import's --group, joined by every contact it names.
   */
  after(entry: number, before: Contact | undefined, group: string | undefined): ContactState {
    const state = copyOf(stateOf(before));
    for (const each of this.numbers.entriesOf(entry))
      applyRow(state, { place: '', sets: rowSets(this.kinds[each], this.textOf(each)) }, true);
    if (group !== undefined && !state.contact_groups.includes(group)) state.contact_groups.push(group);
    return before === undefined ? createdState(state) : state;
  }

  /**
   * Whether the record line of the new contact of `entry` (a first entry) was written whole when
   * its row was checked: its only row, written as a created contact's (row-values.ts). Its bytes
   * are then spanOf(entry), with the import's --group still to join (withGroup).
   */
  createdAsWritten(entry: number): boolean {
    return isCreated(this.kinds[entry]) && !this.numbers.repeated(entry);
  }

  /** Where the values of `entry` are in bytes(): [start, end). */
  spanOf(entry: number): [number, number] {
    return [entry === 0 ? 0 : this.ends[entry - 1], this.ends[entry]];
  }

  /** The values written, start to end, not copied. */
  bytes(start: number, end: number): Uint8Array {
    return this.values.view().subarray(start, end);
  }

  /** The values of `entry` as text. */
  textOf(entry: number): string {
    return this.values.text(...this.spanOf(entry));
  }

  /**
   * The numbers named by rows the server says failed (by key): the import did not apply them, so
   * their contacts are not what the rows predict.
   */
  refused(errors: readonly ImportError[]): Set<number> {
    const failed = serverFailed([...errors], this.sheet ? 'row' : 'line');
    return failed.size === 0 ? new Set() : this.numbers.keysAt(this.sheet ? 'row' : 'line', failed);
  }

  /** The key of an entry's number (NumberKeys.keyOf). */
  keyOf(entry: number): number {
    return this.numbers.keyOf(entry);
  }

  /**
   * Counts the numbers followed, once, at the most rows (a file of fewer rows is never counted):
   * if they are one more than a change keeps, no new one is followed; if fewer, each later row's
   * number is added to them as it comes, until they are.
   */
  private countNumbers(): void {
    const distinct = this.numbers.distinct();
    if (distinct.length > this.most) this.stopFollowing(distinct);
    else this.seen = new KeySet(distinct);
  }

  private stopFollowing(followed: Float64Array): void {
    this.full = followed;
    this.seen = undefined;
  }

  private grow(): void {
    const ends = new Float64Array(this.ends.length * 2);
    ends.set(this.ends);
    this.ends = ends;
    const kinds = new Uint8Array(this.kinds.length * 2);
    kinds.set(this.kinds);
    this.kinds = kinds;
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
