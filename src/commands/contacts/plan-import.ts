// An import's plan, by the import's own rules (docs/import-file.md): rows in file order, each
// naming its contact by number as the server stores it (normalised); a number the workspace lacks
// creates a contact, and a later row with that number updates what the earlier one created. An
// empty cell keeps the stored value (said where there is one); groups are joined, never left, and
// a group the workspace lacks is created. Rows naming one contact are shown together with its end
// state. Fed a row at a time (a million rows need no second array), then finished. Told how many
// rows name each number (file-numbers.ts repeatCounts), it settles each contact at its last row
// and hands it on, keeping only the contacts whose rows are still to come: a dry run of a file at
// the upload limit holds its counts, not its plan.
import {
  applyRow,
  copyOf,
  createdState,
  differences,
  note,
  paddedStored,
  settledAction,
  stateOf,
  UNNAMED,
  type ContactState,
  type LiveContacts,
  type Plan,
  type PlannedContact,
  type PlanRow,
} from './plan.js';
import { placesOf } from './places.js';
import { decimalNumber } from './spreadsheet-damage.js';
import { NumberTable } from './number-table.js';
import { type PlanTotals, PlanTally, tally } from './plan-tally.js';
import { addUnshown, SHOWN_ALL, type Shown, withoutUnshown } from './plan-unshown.js';
import { UnreadableTally } from '../../cli/unreadable-cells.js';

interface Followed {
  planned: PlannedContact;
  before: ContactState;
  state: ContactState;
  created: boolean;
  /** Where the planner settles contacts: how many of its rows are still to come. */
  left: number;
}

/** How a planner hands on each contact as soon as its plan is final, rather than keep them all. */
export interface Settling {
  /** How many rows name each number named more than once (as the server stores it), from the row of its first planned row on; every other number, one. More than will be planned keeps the contact until finish. */
  repeats: { get(number: string): number | undefined };
  /** How many contacts waiting for later rows are kept as objects (WAITING_OBJECTS by default); past it each waits as its JSON text, a few times smaller. */
  objects?: number;
  /** Each contact once its last row is planned (a row left out or invalid at once), in that order. */
  settled(contact: PlannedContact): void;
}

/** Contacts waiting for later rows kept as objects, about 560 bytes each; past them, each waits as its text, about 200. */
const WAITING_OBJECTS = 50_000;

/** What of a contact waiting for later rows is kept as text: its `before` is the workspace's, read again. */
type Waiting = Omit<Followed, 'before'>;

/** A plan's counts; `contacts`: those not handed on by Settling (every one without it). */
export type FinishedPlan = PlanTotals & { contacts: PlannedContact[] };

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
  /** The contacts followed and not yet settled, by number, in the order of their first rows: objects, or (Settling, past its `objects`) JSON text. */
  private readonly byNumber = new Map<string, Followed | string>();
  /** How many of byNumber's contacts are objects. */
  private objects = 0;
  /** Every number followed, once (the contacts settled are no longer in byNumber). */
  private readonly named = new NumberTable();
  /** The counts of the contacts handed on (Settling). */
  private readonly counts = new PlanTally();
  private readonly newGroups = new Set<string>();
  /** The rows sending each column the server's contacts do not show. */
  private readonly unshownRows: Record<string, number> = {};
  /** The rows holding groups or field cells the check could not read (sent as written). */
  private readonly unreadable = new UnreadableTally();

  constructor(
    private readonly live: LiveContacts,
    private readonly options: ImportPlanOptions,
    private settling?: Settling,
  ) {}

  /** From the first row on, each contact is handed on once settled (a run learns how many rows name each number only when it plans first). */
  settleWith(settling: Settling): void {
    if (this.named.count > 0 || this.contacts.length > 0)
      throw new Error('a planner settles its contacts from the first row or not at all');
    this.settling = settling;
  }

  /** Plans one row (valid or not), in file order; says what the run leaves out of it. */
  add(row: PlanRow): RowOutcome {
    const number = row.number ?? null;
    if (row.errors !== undefined) {
      this.hand({ place: row.place, action: 'invalid', id: null, number, changes: {}, suspicious: [], errors: row.errors });
      return { held: [], skipped: false };
    }
    let followed = this.take(number!);
    if (followed === undefined) {
      const contact = this.live.byNumber.get(number!);
      const beside = contact === undefined ? (decimalNumber(row.written, number!, this.live) ?? this.besidePadded(number!)) : undefined;
      if (beside !== undefined && !this.options.applyFlagged) {
        // The row's one change is the new contact itself: it is left out whole.
        const held = { number: { from: null, to: number, why: beside } };
        this.hand({ place: row.place, action: 'skipped', id: null, number, changes: {}, suspicious: [`number: ${beside}`], held });
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
      const left = this.settling?.repeats.get(number!) ?? 1;
      followed = { planned, before, state: copyOf(before), created: contact === undefined, left };
      this.named.add(number!, 0, 0);
      if (this.settling === undefined) this.contacts.push(planned);
    } else {
      const { planned } = followed;
      planned.rows ??= [{ place: planned.place, does: followed.created ? 'create' : 'update' }];
      planned.rows.push({ place: row.place, does: 'update' });
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
    if (this.settling !== undefined && --followed.left <= 0) {
      this.byNumber.delete(number!);
      this.hand(this.settle(followed));
    } else this.keep(number!, followed);
    return { held: Object.keys(applied.held), skipped: false };
  }

  /** The contact followed for `number`, if any, as an object (read back from its text). */
  private take(number: string): Followed | undefined {
    const kept = this.byNumber.get(number);
    if (typeof kept !== 'string') {
      if (kept !== undefined) this.objects -= 1;
      return kept;
    }
    const waiting = JSON.parse(kept) as Waiting;
    const contact = this.live.byNumber.get(number);
    return { ...waiting, before: waiting.created || contact === undefined ? NO_CONTACT : stateOf(contact) };
  }

  /** Keeps a contact whose later rows are to come: as an object, or past Settling's `objects`, as its text. */
  private keep(number: string, followed: Followed): void {
    if (this.settling === undefined || this.objects < (this.settling.objects ?? WAITING_OBJECTS)) {
      this.objects += 1;
      this.byNumber.set(number, followed);
      return;
    }
    const { before: _stored, ...waiting } = followed;
    this.byNumber.set(number, JSON.stringify(waiting satisfies Waiting));
  }

  /** A contact whose plan is final: kept in the plan's list, or counted and handed on. */
  private hand(contact: PlannedContact): void {
    if (this.settling === undefined) return void this.contacts.push(contact);
    this.counts.add(contact);
    this.settling.settled(contact);
  }

  /** The plan of every row added: each contact's changes from the workspace's values to the run's end state. */
  finish(): FinishedPlan {
    // Without Settling every contact is still followed; with it, those whose last row never came (it was invalid).
    for (const number of [...this.byNumber.keys()]) {
      const planned = this.settle(this.take(number)!);
      if (this.settling !== undefined) this.hand(planned);
    }
    this.byNumber.clear();
    // A server whose contacts do not show groups is not known to create them: the plan does not promise it.
    const groupsShown = this.options.shown?.contact_groups !== false;
    const newGroups = groupsShown ? [...this.newGroups] : [];
    const plan: FinishedPlan =
      this.settling === undefined ? tally(this.contacts, newGroups) : { ...this.counts.totals(newGroups), contacts: [] };
    if (Object.keys(this.unshownRows).length > 0) plan.not_shown = this.unshownRows;
    if (!groupsShown && this.newGroups.size > 0) plan.lacking_groups = [...this.newGroups];
    const unreadable = this.unreadable.result();
    if (unreadable !== undefined) plan.unreadable_cells = unreadable;
    return plan;
  }

  /** A contact's plan once its rows are applied: its changes from the workspace's values to the run's end state. */
  private settle({ planned, before, state, created }: Followed): PlannedContact {
    // Said once, here: a contact of a million rows would otherwise be named again at each.
    if (planned.rows !== undefined) planned.place = placesOf(planned.rows.map((each) => each.place));
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
    return planned;
  }

  /** The numbers the rows name, as the server stores them (those left out whole aside). */
  numbers(): Iterable<string> {
    return this.named.numbers();
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
  // Compared as values: a contact waiting for later rows as text holds copies, not the state's own arrays.
  const kept = Object.entries(planned.kept).filter(([key, value]) => JSON.stringify(now(key)) === JSON.stringify(value));
  if (kept.length > 0) planned.kept = Object.fromEntries(kept);
  else delete planned.kept;
}

/** An import's plan of rows already read. */
export function planImport(rows: Iterable<PlanRow>, live: LiveContacts, options: ImportPlanOptions): Plan {
  const planner = new ImportPlanner(live, options);
  for (const row of rows) planner.add(row);
  return planner.finish();
}
