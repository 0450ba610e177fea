// What an import did, in its plan's categories (contacts/plan.ts): contacts created, updated and
// unchanged, rows left out (all they change looks made by a spreadsheet), rows failed, out of the
// distinct contacts the rows name. Followed as the rows are checked, before the upload or while
// the server works through the file: a row costs an entry of the numbers' table (number-table.ts),
// a stored contact it names its values as the run leaves them (the workspace was read whole, so
// there are few; a group or field its record does not show, as the plan says, no change). Once
// the import has finished, the rows the server refused move their contact
// into failed, and its counters, where it keeps any, are compared with what the plan expects of
// them: the server counts a row applied to a contact as `updated` whatever it changed, so an
// unchanged contact, or a row sent without its held cells, is one of its `updated`.
// The change journal follows the same rows (journal/import-outcome.ts) and is kept apart, as its
// use differs: it predicts the contacts an import creates and learns the before-images only after
// the rows (a large workspace's lookups), so it writes down every row's values and applies them at the
// end, cells the plan held left out by row; this tally is made only where the workspace was read
// whole, so it knows the stored contacts before the first row, keeps values for those alone,
// applies each row at once (holding by the planner's own rule, applyRow), and leaves out groups
// and fields the contacts do not show, as the plan calls them no change.
import type { ContactImport, ImportRow } from '../../api/schemas/index.js';
import { countOf, countText } from '../../cli/text.js';
import { NumberTable } from '../contacts/number-table.js';
import { importRowSets } from './import-plan.js';
import { applyRow, copyOf, differences, stateOf, type ContactState, type LiveContacts } from '../contacts/plan.js';
import { shownByContact, withoutUnshown } from '../contacts/plan-unshown.js';
import { serverFailed } from './rejects.js';

/** An import's counts in its plan's categories (`summary` in the finished import's JSON). */
export interface ImportSummary {
  /** Contacts. */
  created: number;
  updated: number;
  unchanged: number;
  /** Rows left out: every change they carry looks made by a spreadsheet (kept as stored), or their new number sits beside one with leading zeros. */
  left_out: number;
  /** Rows not applied: invalid, not sent (a cell holding an error), or refused by the server. */
  failed: number;
  /** The distinct contacts the rows name, those left out aside. */
  contacts: number;
  /** The file's data rows. */
  rows: number;
}

/** A finished import's summary, and the line saying where the server's counters disagree with the plan. */
export interface PlannedOutcome {
  summary: ImportSummary;
  disagreement?: string;
}

/** The rows as the check counted them. */
type Checked = { rows: number; invalid_rows: number };

/** A stored contact the rows name: its values before and as the run leaves them, the keys whose last change was held, and its rows. */
interface Stored {
  before: ContactState;
  state: ContactState;
  held: Set<string>;
  rows: number;
  /** The import's --group is one it is not in yet (and its groups are shown). */
  joins: boolean;
}

type Kept = 'updated' | 'unchanged' | 'left_out';

const COUNTERS = ['created', 'updated', 'failed'] as const;
type ServerCounts = Record<(typeof COUNTERS)[number], number>;

export class ImportTally {
  /** Each valid row sent: its number, row and line (shared with the rows naming one contact: repeated-numbers.ts). */
  readonly named = new NumberTable();
  private readonly stored = new Map<string, Stored>();
  private leftOutWhole = 0;

  /** `group`: the id of the import's --group, which every row's contact joins. */
  constructor(
    private readonly live: LiveContacts,
    private readonly applyFlagged: boolean,
    private readonly group?: number,
  ) {}

  /** A valid row the run sends, in file order: its number as the server stores it, and its value. */
  sent(number: string, place: { row: number; line: number }, value: ImportRow): void {
    this.named.add(number, place.row, place.line);
    const contact = this.live.byNumber.get(number);
    if (contact === undefined) return;
    let stored = this.stored.get(number);
    if (stored === undefined) {
      const before = stateOf(contact);
      const joins =
        this.group !== undefined &&
        shownByContact(contact).contact_groups &&
        !contact.contact_groups!.some((group) => Number(group.id) === this.group);
      stored = { before, state: copyOf(before), held: new Set(), rows: 0, joins };
      this.stored.set(number, stored);
    }
    stored.rows++;
    // What the server's contacts do not show (a contact without `contact_groups` or `fields`) is not known to be kept: no change.
    const { row } = withoutUnshown({ place: '', number, sets: importRowSets(value, undefined) }, shownByContact(contact));
    const applied = applyRow(stored.state, row, this.applyFlagged, stored.before);
    // A later row's value decides (rows apply in order): a held change it sets again no longer leaves the contact out.
    for (const key of applied.decided) stored.held.delete(key);
    for (const key of Object.keys(applied.held)) stored.held.add(key);
  }

  /** A valid row the run leaves out whole (its new number beside one with leading zeros). */
  leftOut(): void {
    this.leftOutWhole++;
  }

  /**
   * The counts, with the rows the server refused (`refused`: their lines, or a sheet's rows)
   * moving their contacts into failed; `server`: the counters the plan expects the server to keep
   * (`notSent`: invalid rows that never reached it).
   */
  counts(checked: Checked, refused: ReadonlySet<number> = new Set(), by: 'line' | 'row' = 'line', notSent = 0) {
    const kept = { updated: 0, unchanged: 0, left_out: this.leftOutWhole };
    const keptAs = (stored: Stored): Kept =>
      stored.joins || Object.keys(differences(stored.before, stored.state)).length > 0
        ? 'updated'
        : stored.held.size > 0
          ? 'left_out'
          : 'unchanged';
    const weight = (stored: Stored, as: Kept) => (as === 'left_out' ? stored.rows : 1);
    for (const stored of this.stored.values()) {
      const as = keptAs(stored);
      kept[as] += weight(stored, as);
    }
    const extra = this.named.repeated().reduce((sum, entries) => sum + entries.length - 1, 0);
    let created = this.named.count - extra - this.stored.size;
    let createdThere = created;
    let refusedRows = 0;
    const { refusedOf, rowsOf } = this.refusedByNumber(refused, by);
    for (const [number, rows] of refusedOf) {
      refusedRows += rows;
      const stored = this.stored.get(number);
      if (stored === undefined) {
        created--;
        // A later row of a new number that the server took creates it there all the same.
        if (rows === rowsOf.get(number)) createdThere--;
      } else {
        const as = keptAs(stored);
        kept[as] -= weight(stored, as);
      }
    }
    const summary: ImportSummary = {
      created,
      ...kept,
      failed: checked.invalid_rows + refusedRows,
      contacts: created + kept.updated + kept.unchanged + refusedOf.size,
      rows: checked.rows,
    };
    const server: ServerCounts = {
      created: createdThere,
      updated: this.named.count - refusedRows - createdThere,
      failed: checked.invalid_rows - notSent + refusedRows,
    };
    return { summary, server };
  }

  /** Of the valid rows the server refused: how many each number has, and how many rows that number has in all. */
  private refusedByNumber(refused: ReadonlySet<number>, by: 'line' | 'row') {
    const refusedOf = new Map<string, number>();
    const rowsOf = new Map<string, number>();
    if (refused.size === 0) return { refusedOf, rowsOf };
    for (let entry = 0; entry < this.named.count; entry++) {
      const place = this.named.placeOf(entry);
      if (!refused.has(place[by])) continue;
      const number = this.named.numberOf(entry);
      refusedOf.set(number, (refusedOf.get(number) ?? 0) + 1);
    }
    for (let entry = 0; entry < this.named.count; entry++) {
      const number = this.named.numberOf(entry);
      if (refusedOf.has(number)) rowsOf.set(number, (rowsOf.get(number) ?? 0) + 1);
    }
    return { refusedOf, rowsOf };
  }
}

/**
 * A finished import's outcome in its plan's categories: the failed rows its errors name (by line,
 * or by a sheet's row) moved into failed, and a line where its counters disagree with the plan.
 */
export function plannedOutcome(tally: ImportTally, checked: Checked, record: ContactImport, sheet?: { notSent: number }): PlannedOutcome {
  const errors = Array.isArray(record.errors) ? record.errors : [];
  const refused = new Set(serverFailed(errors, sheet === undefined ? 'line' : 'row').keys());
  const { summary, server } = tally.counts(checked, refused, sheet === undefined ? 'line' : 'row', sheet?.notSent ?? 0);
  const told = COUNTERS.filter((kind) => typeof record[`${kind}_count`] === 'number');
  if (told.every((kind) => record[`${kind}_count`] === server[kind])) return { summary };
  const list = (count: (kind: (typeof COUNTERS)[number]) => number) => told.map((kind) => `${countText(count(kind))} ${kind}`).join(', ');
  const disagreement = `import ${record.id}: the server counts ${list((kind) => record[`${kind}_count`] as number)} where the plan expects ${list((kind) => server[kind])} of the rows sent: some rows were not applied as planned`;
  return { summary, disagreement };
}

/**
 * `1 updated, 1 unchanged, 2 rows left out (cells a spreadsheet changed), 0 rows failed; 2 contacts from 4 rows`:
 * the first three count contacts, the rows left out and failed count rows, so each says which.
 */
export function summaryText(summary: ImportSummary): string {
  const parts: string[] = [];
  if (summary.created > 0) parts.push(`${countText(summary.created)} created`);
  if (summary.updated > 0 || summary.created === 0) parts.push(`${countText(summary.updated)} updated`);
  parts.push(`${countText(summary.unchanged)} unchanged`);
  parts.push(`${countOf(summary.left_out, 'row')} left out${summary.left_out > 0 ? ' (cells a spreadsheet changed)' : ''}`);
  parts.push(`${countOf(summary.failed, 'row')} failed`);
  return `${parts.join(', ')}; ${countOf(summary.contacts, 'contact')} from ${countOf(summary.rows, 'row')}`;
}
