// An import's plan, by the import's own rules (docs/import-file.md): rows in file order, each
// naming its contact by number as the server stores it (normalised); a number the workspace lacks
// creates a contact, and a later row with that number updates what the earlier one created. An
// empty cell keeps the stored value (said where there is one); groups are joined, never left, and
// a group the workspace lacks is created. Rows naming one contact are shown together with its end
// state. Fed a row at a time (a million rows need no second array), then finished.
import {
  applyRow,
  copyOf,
  createdState,
  differences,
  note,
  paddedStored,
  settledAction,
  stateOf,
  tally,
  UNNAMED,
  type ContactState,
  type LiveContacts,
  type Plan,
  type PlannedContact,
  type PlanRow,
} from './plan.js';
import { rowName } from '../../cli/text.js';
import { placesOf } from './places.js';
import { NumberTable } from './number-table.js';
import { addUnshown, SHOWN_ALL, type Shown, withoutUnshown } from './plan-unshown.js';
import { UnreadableTally } from '../../cli/unreadable-cells.js';

interface Followed {
  planned: PlannedContact;
  before: ContactState;
  state: ContactState;
  created: boolean;
}

/** What the run leaves out of one row: its held cells (by plan key), or the whole row. */
export interface RowOutcome {
  held: string[];
  skipped: boolean;
}

export interface ImportPlanOptions {
  /** --apply-flagged: changes that look made by a spreadsheet are applied, not held. */
  applyFlagged: boolean;
  /** The workspace's contact group names, when read: a name outside them is a group the import creates. */
  groups?: ReadonlySet<string>;
  /** The file's numbers written both with and without leading zeros: the one without -> one with (padded-twins.ts). */
  twins?: ReadonlyMap<string, string>;
  /** The workspace's contacts were not read (`live` holds some at most): a number the rows do not know may be stored, so none is said to be new. */
  unread?: boolean;
  /** Where `unread`: the numbers a search found held by no contact (large-workspace.ts), the only ones known to be new. */
  absent?: ReadonlySet<string>;
  /** Where `unread`, why: each contact of a number neither found nor absent says it, as a dry run shows it. */
  unreadWhy?: string;
  /** Which of groups and custom fields the server's contacts show: what they do not show is said as sent, not as changed (SHOWN_ALL by default). */
  shown?: Shown;
}

/** What a new contact is compared with: one state for all of them (never changed: a row changes its copy). */
const NO_CONTACT: ContactState = Object.freeze(stateOf(undefined));

export class ImportPlanner {
  private readonly contacts: PlannedContact[] = [];
  private readonly byNumber = new Map<string, Followed>();
  private readonly followed: Followed[] = [];
  private readonly newGroups = new Set<string>();
  /** The rows sending each column the server's contacts do not show. */
  private readonly unshownRows: Record<string, number> = {};
  /** The rows holding groups or field cells the check could not read (sent as written). */
  private readonly unreadable = new UnreadableTally();

  constructor(
    private readonly live: LiveContacts,
    private readonly options: ImportPlanOptions,
  ) {}

  /** Plans one row (valid or not), in file order; says what the run leaves out of it. */
  add(row: PlanRow): RowOutcome {
    const number = row.number ?? null;
    if (row.errors !== undefined) {
      this.contacts.push({ place: row.place, action: 'invalid', id: null, number, changes: {}, suspicious: [], errors: row.errors });
      return { held: [], skipped: false };
    }
    let followed = this.byNumber.get(number!);
    if (followed === undefined) {
      const contact = this.live.byNumber.get(number!);
      const beside = contact === undefined ? this.besidePadded(number!) : undefined;
      if (beside !== undefined && !this.options.applyFlagged) {
        // The row's one change is the new contact itself: it is left out whole.
        const held = { number: { from: null, to: number, why: beside } };
        this.contacts.push({ place: row.place, action: 'skipped', id: null, number, changes: {}, suspicious: [`number: ${beside}`], held });
        return { held: [], skipped: true };
      }
      const planned: PlannedContact = {
        place: row.place,
        action: contact === undefined ? 'create' : 'unchanged',
        id: contact === undefined ? null : Number(contact.id),
        number: contact === undefined ? number : String(contact.number),
        changes: {},
        suspicious: beside === undefined ? [] : [`number: ${beside}`],
      };
      const before = contact === undefined ? NO_CONTACT : stateOf(contact);
      followed = { planned, before, state: copyOf(before), created: contact === undefined };
      this.byNumber.set(number!, followed);
      this.followed.push(followed);
      this.contacts.push(planned);
    } else {
      const { planned } = followed;
      planned.rows ??= [{ place: planned.place, does: followed.created ? 'create' : 'update' }];
      planned.rows.push({ place: row.place, does: 'update' });
      planned.place = placesOf(planned.rows.map((each) => each.place));
    }
    const { row: shownRow, unshown } = withoutUnshown(row, this.options.shown ?? SHOWN_ALL);
    const applied = applyRow(followed.state, shownRow, this.options.applyFlagged, followed.before);
    note(followed.planned, applied);
    for (const key of Object.keys(unshown)) this.unshownRows[key] = (this.unshownRows[key] ?? 0) + 1;
    if (Object.keys(unshown).length > 0) followed.planned.not_shown = addUnshown(followed.planned.not_shown, unshown);
    if (row.unreadable !== undefined) {
      followed.planned.unreadable = { ...followed.planned.unreadable, ...row.unreadable };
      this.unreadable.add(row.place, row.unreadable);
    }
    for (const name of row.sets?.groups?.names ?? []) if (this.options.groups?.has(name) === false) this.newGroups.add(name);
    return { held: Object.keys(applied.held), skipped: false };
  }

  /** The plan of every row added: each contact's changes from the workspace's values to the run's end state. */
  finish(): Plan {
    for (const { planned, before, state, created } of this.followed) {
      planned.after = created ? createdState(state) : state;
      // A new contact's name is shown as the server gives it (`Unknown` where no row sets one, or
      // its cell is held); its status, active unless a row says otherwise, is in `after` alone.
      const named = created && !this.options.unread && state.name === null;
      planned.changes = differences(before, named ? { ...state, name: UNNAMED } : state);
      if (named && planned.held?.name !== undefined) planned.held.name.instead = UNNAMED;
      dropOverwritten(planned, state);
      planned.action = created ? 'create' : settledAction(planned);
      if (created && this.options.unreadWhy !== undefined && this.options.absent?.has(planned.number ?? '') !== true)
        planned.unread = this.options.unreadWhy;
    }
    // A server whose contacts do not show groups is not known to create them: the plan does not promise it.
    const groupsShown = this.options.shown?.contact_groups !== false;
    const plan = tally(this.contacts, groupsShown ? [...this.newGroups] : []);
    if (Object.keys(this.unshownRows).length > 0) plan.not_shown = this.unshownRows;
    if (!groupsShown && this.newGroups.size > 0) plan.lacking_groups = [...this.newGroups];
    const unreadable = this.unreadable.result();
    if (unreadable !== undefined) plan.unreadable_cells = unreadable;
    return plan;
  }

  /** The numbers the rows name, as the server stores them (those left out whole aside). */
  numbers(): Iterable<string> {
    return this.byNumber.keys();
  }

  /**
   * A new number equal to a contact's but for fewer leading zeros, or to a number the file also
   * writes with leading zeros (before or after this row): a spreadsheet may have dropped them.
   */
  private besidePadded(number: string): string | undefined {
    const near = paddedStored(this.live, number);
    if (near !== undefined)
      return `"${number}" would be a new contact beside contact ${near.id}, "${near.number}": a spreadsheet may have dropped its leading zeros`;
    const twin = this.options.twins?.get(number);
    // A number that may be stored is updated, not left out: only one known to be new is a twin's damage.
    if (twin === undefined || (this.options.unread && this.options.absent?.has(number) !== true)) return undefined;
    return `"${number}" would be a new contact beside "${twin}", a number of the same file: a spreadsheet may have dropped its leading zeros`;
  }
}

/** A value a row left empty and a later row set is no longer kept: only what the end state still holds is said. */
function dropOverwritten(planned: PlannedContact, state: ContactState): void {
  if (planned.kept === undefined) return;
  const now = (key: string) => (key.startsWith('fields.') ? state.fields[key.slice('fields.'.length)] : state[key as keyof ContactState]);
  const kept = Object.entries(planned.kept).filter(([key, value]) => now(key) === value);
  if (kept.length > 0) planned.kept = Object.fromEntries(kept);
  else delete planned.kept;
}

/**
 * The contacts several rows name, as ImportPlanner shows them (the same key, the number as the
 * server stores it; the same places; the contact, or the new number), without following any
 * contact's values: all the plan of a run that holds nothing has to say (imports/hold-scan.ts). A
 * million rows cost a few bytes each (number-table.ts).
 */
export class RepeatedNumbers {
  /**
   * `named`: each valid row's number, row and line, in file order; a table another follower of the
   * rows fills (import-tally.ts) is shared rather than filled twice.
   */
  constructor(
    private readonly live: LiveContacts,
    private readonly named = new NumberTable(),
  ) {}

  /** `number`: a valid row's, as the server stores it. */
  add(number: string, where: { row: number; line: number }): void {
    this.named.add(number, where.row, where.line);
  }

  /** Every number the rows name. */
  numbers(): Iterable<string> {
    return this.named.numbers();
  }

  /** The contacts named by several rows, in the order of their first rows (as a plan lists them). */
  contacts(): PlannedContact[] {
    return this.named.repeated().map((entries): PlannedContact => {
      const number = this.named.numberOf(entries[0]);
      const contact = this.live.byNumber.get(number);
      const places = entries.map((entry) => rowName(this.named.placeOf(entry)));
      return {
        place: placesOf(places),
        action: contact === undefined ? 'create' : 'update',
        id: contact === undefined ? null : Number(contact.id),
        number: contact === undefined ? number : String(contact.number),
        changes: {},
        suspicious: [],
        rows: places.map((place, at) => ({ place, does: at === 0 && contact === undefined ? 'create' : 'update' })),
      };
    });
  }
}

/** An import's plan of rows already read. */
export function planImport(rows: Iterable<PlanRow>, live: LiveContacts, options: ImportPlanOptions): Plan {
  const planner = new ImportPlanner(live, options);
  for (const row of rows) planner.add(row);
  return planner.finish();
}
