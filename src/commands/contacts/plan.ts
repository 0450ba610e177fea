// The plan of a file of contacts against the live workspace (Terraform's plan as the model): per
// contact, create / update / unchanged / invalid / skipped (delete / absent for a delete), and for
// each field that changes `from` -> `to`. The plan is what the run executes, so it follows the
// run's own rules: an import's rows in file order, a later row updating what an earlier one made,
// numbers matched as the server stores them; an update's rows merged per contact. Changes that
// look made by a spreadsheet are held (left out, kept as stored) unless applyFlagged says
// otherwise. Pure: the rows come in read from any file format, the live contacts as the list gives
// them; plan-import.ts and plan-update.ts plan, plan-render.ts prints, the verbs execute.
import { normalizeNumber, type Contact } from '../../api/schemas/index.js';
import type { UnreadableCell, UnreadableCounts } from '../../cli/unreadable-cells.js';
import { spreadsheetDamage } from './spreadsheet-damage.js';

export type PlanAction = 'create' | 'update' | 'unchanged' | 'invalid' | 'skipped' | 'delete' | 'absent' | 'failed';

/** The values a row sets; a value not given is left as it is, null (or '' for a field) clears it. */
export interface RowSets {
  name?: string;
  email?: string | null;
  gender?: string | null;
  status?: boolean;
  fields?: Record<string, string>;
  /** Group names: joined (an import) or the contact's groups from now on (an update). */
  groups?: { names: string[]; replace: boolean };
}

/** What one row of the file asks for (or several rows of one contact, merged), whatever the file's format. */
export interface PlanRow {
  /** Where the row is, as messages name it (`row 3`, `line 3`, `lines 2, 5`). */
  place: string;
  /** The contact it names: an id (update, delete) or, for an import, its number (an update's is compared, never sent). */
  id?: number;
  number?: string;
  /** An import's number cell as written, where a spreadsheet may have made it (a decimal): the plan says why the row is left out. */
  written?: string;
  sets?: RowSets;
  /** Keys (`email`, `fields.city`) of columns the row leaves empty that the run keeps as they are. */
  emptied?: string[];
  /** Why the row cannot be applied (the local check's messages). */
  errors?: string[];
  /** Several rows naming one contact, merged into this one: their places, in file order. */
  merged?: string[];
  /** Groups or field cells the check could not read, in columns the server's contacts do not show: sent as written. */
  unreadable?: Record<string, UnreadableCell>;
}

export interface Change {
  from: unknown;
  to: unknown;
}

/** A change left out: it looks made by a spreadsheet (`why`), and the value stays as stored. */
export interface HeldChange extends Change {
  why: string;
  /** What the contact holds instead where nothing is stored: a new contact's name, which the server gives. */
  instead?: unknown;
}

export interface PlannedContact {
  place: string;
  action: PlanAction;
  id: number | null;
  number: string | null;
  /** What the run changes, by field: `name`, `email`, `status`, `contact_groups`, `fields.<name>`. */
  changes: Record<string, Change>;
  /** Why a change looks made by a spreadsheet: held unless --apply-flagged, applied (and still named) with it. */
  suspicious: string[];
  /** The flagged changes left out: the stored value stays. */
  held?: Record<string, HeldChange>;
  /** Values the file leaves empty that the run keeps, by field: the value kept. */
  kept?: Record<string, unknown>;
  /** Several rows name this contact: what each does, in file order. */
  rows?: Array<{ place: string; does: 'create' | 'update' | 'delete' }>;
  /** The contact as the run leaves it (create, update, unchanged). */
  after?: ContactState;
  errors?: string[];
  /** What the plan says of a row beyond its changes: what it asks that the run will not do (an update's other number), a value sent uncompared. */
  notes?: string[];
  /** How an undo's or a change's plan names a record that is no contact (`label 3`, `the partner defaults`). */
  label?: string;
  /** Values sent that this server's contacts do not show (`contact_groups`, `fields.city`): not known to be kept, so in neither `changes` nor `after`. */
  not_shown?: Record<string, unknown>;
  /** Why the contact's stored values were not read: the run sends its row as it is (`changes` give no `from`). */
  unread?: string;
  /** Its rows' groups or field cells the check could not read, sent as written (the server's contacts do not show them). */
  unreadable?: Record<string, UnreadableCell>;
}

export interface Plan {
  create: number;
  update: number;
  unchanged: number;
  invalid: number;
  /** Rows left out whole: their one change looks made by a spreadsheet (a new number beside a padded one). */
  skipped: number;
  delete?: number;
  absent?: number;
  /** Records whose request failed (a change as `wsm history show` gives it; only where there are some). */
  failed?: number;
  /** Contacts with a change that looks made by a spreadsheet. */
  suspicious: number;
  /** Cells whose change looks made by a spreadsheet, left out (kept as stored); 0 with --apply-flagged. */
  held: number;
  /** Contacts named by more than one row. */
  repeated: number;
  /** Contact groups the run creates (an import's rows naming groups the workspace lacks). */
  new_groups: string[];
  /** On a server whose contacts do not show groups or fields: the rows sending each such column (plan-unshown.ts). */
  not_shown?: Record<string, number>;
  /** There, the groups the rows name that the workspace lacks: its import is not known to create them. */
  lacking_groups?: string[];
  /** Contacts sent as their rows give them, their stored values not read (only where there are some). */
  not_read?: number;
  /** An update on a server whose contacts do not show groups or fields: the rows emptying each such column, left out of their requests. */
  unsent_emptied?: Record<string, number>;
  /** An import's groups or field cells the check could not read, sent as written, by column (the first rows named). */
  unreadable_cells?: UnreadableCounts;
  contacts: PlannedContact[];
}

/** The live contacts, looked up by id and by number (as the server matches numbers: normalised). */
export interface LiveContacts {
  byId: Map<number, Contact>;
  byNumber: Map<string, Contact>;
  /** Numbers by their digits without leading zeros, where that differs from the number: the one with the most zeros. */
  byUnpadded: Map<string, Contact>;
}

export function liveContacts(contacts: Iterable<Contact>): LiveContacts {
  const live: LiveContacts = { byId: new Map(), byNumber: new Map(), byUnpadded: new Map() };
  for (const contact of contacts) {
    live.byId.set(Number(contact.id), contact);
    const number = normalizeNumber(String(contact.number));
    live.byNumber.set(number, contact);
    const unpadded = number.replace(/^0+/, '');
    const padded = live.byUnpadded.get(unpadded);
    if (unpadded !== number && (padded === undefined || normalizeNumber(String(padded.number)).length < number.length))
      live.byUnpadded.set(unpadded, contact);
  }
  return live;
}

/**
 * The stored contact whose number is `number` (as the server stores it, and not stored itself)
 * with more leading zeros, if any: a spreadsheet drops a number's leading zeros and never adds
 * them, so a new number with fewer zeros than a stored one may be that one damaged, and one with
 * more is another number.
 */
export function paddedStored(live: LiveContacts, number: string): Contact | undefined {
  const near = live.byUnpadded.get(number.replace(/^0+/, ''));
  return near !== undefined && normalizeNumber(String(near.number)).length > number.length ? near : undefined;
}

/** A contact's values as a plan follows them from row to row. */
export interface ContactState {
  name: string | null;
  email: string | null;
  gender: string | null;
  status: boolean | null;
  fields: Record<string, string>;
  contact_groups: string[];
}

/** Text as the contract compares it (NFC): a server that stores a file's decomposed text as sent holds the same value. */
const composed = <T>(value: T): T => (typeof value === 'string' ? (value.normalize('NFC') as T) : value);

export function stateOf(contact: Contact | undefined): ContactState {
  if (contact === undefined) return { name: null, email: null, gender: null, status: null, fields: {}, contact_groups: [] };
  const fields = Object.entries(contact.fields ?? {}).filter(([, value]) => typeof value === 'string' && value !== '');
  return {
    name: composed(contact.name ?? null),
    email: composed(contact.email ?? null),
    gender: contact.gender ?? null,
    status: typeof contact.status === 'boolean' ? contact.status : contact.status === undefined ? null : Boolean(contact.status),
    fields: Object.fromEntries(fields.map(([name, value]) => [name, composed(value as string)])),
    contact_groups: (contact.contact_groups ?? []).map((group) => composed(group.name)),
  };
}

/** A state to change without touching `state` (a plan keeps the workspace's values to compare with). */
export const copyOf = (state: ContactState): ContactState => ({
  ...state,
  fields: { ...state.fields },
  contact_groups: [...state.contact_groups],
});

/** The name the API gives a contact created without one (no name in the file, or its cell held). */
export const UNNAMED = 'Unknown';

/** What the server makes of a new contact's values: the name `Unknown` and active unless the row says otherwise. */
export function createdState(state: ContactState): ContactState {
  return { ...state, name: state.name ?? UNNAMED, status: state.status ?? true };
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\0') === [...b].sort().join('\0');

/** Each value that differs between two states of a contact, by plan key. */
export function differences(before: ContactState, after: ContactState): Record<string, Change> {
  const changes: Record<string, Change> = {};
  for (const key of ['name', 'email', 'gender', 'status'] as const)
    if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
  for (const name of new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])) {
    const from = before.fields[name] ?? null;
    const to = after.fields[name] ?? null;
    if (from !== to) changes[`fields.${name}`] = { from, to };
  }
  if (!sameSet(before.contact_groups, after.contact_groups))
    changes.contact_groups = { from: before.contact_groups, to: after.contact_groups };
  return changes;
}

/** What one row did to a state: the flagged changes (held, or applied with --apply-flagged), the emptied values kept. */
export interface Applied {
  held: Record<string, HeldChange>;
  kept: Record<string, unknown>;
  /** `key: why` of each change that looks made by a spreadsheet, held or applied. */
  flagged: string[];
  /** The keys the row sets and the run applies (a value equal to the state's too): an earlier row's held or kept value of them no longer decides. */
  decided: string[];
}

/**
 * Applies a row's values to `state` (in place) as the run applies them: a change that looks made
 * by a spreadsheet is held (the state keeps its value) unless `applyFlagged`. `emptied` keys are
 * kept and said where the state holds a value. `stored`: the contact as the workspace holds it
 * (line breaks are compared with a stored value only, never with one an earlier row set).
 */
export function applyRow(state: ContactState, row: PlanRow, applyFlagged: boolean, stored?: ContactState): Applied {
  const applied: Applied = { held: {}, kept: {}, flagged: [], decided: [] };
  const sets = row.sets ?? {};
  const storedValue = (key: string) => (key.startsWith('fields.') ? stored?.fields[key.slice('fields.'.length)] : stored?.[key as 'name']);
  const put = (key: string, from: unknown, to: unknown, write: () => void) => {
    const why = (from ?? null) === to ? undefined : spreadsheetDamage(from, to, from === storedValue(key));
    if (why !== undefined) applied.flagged.push(`${key}: ${why}`);
    if (why !== undefined && !applyFlagged) return void (applied.held[key] = { from: from ?? null, to, why });
    applied.decided.push(key);
    if ((from ?? null) !== to) write();
  };
  if (sets.name !== undefined) put('name', state.name, sets.name, () => void (state.name = sets.name!));
  if (sets.email !== undefined) put('email', state.email, sets.email, () => void (state.email = sets.email!));
  if (sets.gender !== undefined) put('gender', state.gender, sets.gender, () => void (state.gender = sets.gender!));
  if (sets.status !== undefined) state.status = sets.status;
  for (const [name, value] of Object.entries(sets.fields ?? {}))
    put(`fields.${name}`, state.fields[name], value === '' ? null : value, () => {
      if (value === '') delete state.fields[name];
      else state.fields[name] = value;
    });
  // An emptied groups cell keeps the groups the contact had, not those the row (its import's --group) joins.
  const groupsBefore = state.contact_groups;
  if (sets.groups !== undefined) {
    applied.decided.push('contact_groups');
    state.contact_groups = sets.groups.replace ? [...sets.groups.names] : [...new Set([...state.contact_groups, ...sets.groups.names])];
  }
  for (const key of row.emptied ?? []) {
    const value =
      key === 'contact_groups'
        ? groupsBefore
        : key.startsWith('fields.')
          ? state.fields[key.slice('fields.'.length)]
          : state[key as keyof ContactState];
    const none = value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (!none) applied.kept[key] = value;
  }
  return applied;
}

/**
 * Adds what a row did to the contact's plan: its held changes (a later row's replace an earlier's),
 * kept values, reasons. A value the row sets decides it (rows apply in order): what an earlier row
 * held or left empty of it, and why, is no longer said.
 */
export function note(planned: PlannedContact, applied: Applied): void {
  const undecided = <T>(earlier: Record<string, T> = {}) => Object.entries(earlier).filter(([key]) => !applied.decided.includes(key));
  for (const key of ['held', 'kept'] as const) {
    const entries = [...undecided<unknown>(planned[key]), ...Object.entries(applied[key])];
    // Set only when there is something, deleted only when there was: a deleted property turns the
    // object into a dictionary several times its size, and a dry run may follow millions of them.
    if (entries.length > 0) planned[key] = Object.fromEntries(entries) as never;
    else if (planned[key] !== undefined) delete planned[key];
  }
  const decidedReason = (reason: string) => applied.decided.some((key) => reason.startsWith(`${key}: `));
  planned.suspicious = [...planned.suspicious.filter((reason) => !decidedReason(reason)), ...applied.flagged];
}

/** The action of a contact once its rows are applied: held changes alone make it skipped. */
export function settledAction(planned: PlannedContact): PlanAction {
  if (Object.keys(planned.changes).length > 0) return 'update';
  return planned.held !== undefined ? 'skipped' : 'unchanged';
}
