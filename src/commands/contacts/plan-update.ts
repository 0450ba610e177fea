// The plans of `contacts update --from` and `contacts delete --from`: each row names its contact by
// id (several rows naming one id come merged, bulk-input.ts mergeRepeated), against the live
// workspace. An update's plan is what its run sends: the held changes left out, a contact with
// nothing left to change not sent. A contact the read did not reach (RowsRead's `unread`) is never
// called unchanged or absent: its row is sent as it is, and the plan says so. On a server whose
// contacts do not show groups (or custom fields), such a value cannot be compared: one the row
// gives is sent and said (`not_shown`), never unchanged; an emptied one is not sent, since an
// empty cell there cannot be told from one the export could not fill (unsentEmptied).
import { normalizeNumber } from '../../api/schemas/index.js';
import { countOf } from '../../cli/text.js';
import type { RowsRead } from './plan-live.js';
import { SHOWN_ALL, type Shown, unshownWhat, withoutUnshown } from './plan-unshown.js';
import {
  applyRow,
  type Change,
  copyOf,
  differences,
  note,
  settledAction,
  stateOf,
  type LiveContacts,
  type Plan,
  type PlannedContact,
  type PlanRow,
} from './plan.js';
import { tally } from './plan-tally.js';
import { withoutDecimalZeros } from './spreadsheet-damage.js';

const rowsOf = (row: PlanRow, does: 'update' | 'delete'): Pick<PlannedContact, 'rows'> =>
  row.merged === undefined ? {} : { rows: row.merged.map((place) => ({ place, does })) };

/** What an unread contact's row sends: each value it gives, its stored one unknown. */
function sentAsIs(row: PlanRow): Record<string, Change> {
  const { fields, groups, ...values } = row.sets ?? {};
  const changes: Record<string, Change> = {};
  for (const [key, to] of Object.entries(values)) changes[key] = { from: undefined, to };
  for (const [name, to] of Object.entries(fields ?? {})) changes[`fields.${name}`] = { from: undefined, to: to === '' ? null : to };
  if (groups !== undefined) changes.contact_groups = { from: undefined, to: groups.names };
  return changes;
}

/** The keys (`contact_groups`, `fields.city`) of values a row empties that this server's contacts do not show: the run leaves them out. */
export function unsentEmptied(row: PlanRow, shown: Shown): string[] {
  const keys: string[] = [];
  if (!shown.contact_groups && row.sets?.groups?.names.length === 0) keys.push('contact_groups');
  if (!shown.fields) for (const [name, value] of Object.entries(row.sets?.fields ?? {})) if (value === '') keys.push(`fields.${name}`);
  return keys;
}

/** What a contact's plan says of each value it sends that this server does not show. */
const unshownNotes = (unshown: Record<string, unknown>): string[] =>
  Object.entries(unshown).map(
    ([key, value]) => `${key} ${JSON.stringify(value)} is sent, not compared: this server's contacts do not show ${unshownWhat(key)}`,
  );

/** The plan's lines on the values rows empty that this server does not show, one per column (`rows`: how many rows empty it). */
export function unsentEmptiedLines(rows: Record<string, number>): string[] {
  return Object.entries(rows).map(
    ([key, count]) =>
      `? ${key} emptied in ${countOf(count, 'row')}, not sent: this server's contacts do not show ${unshownWhat(key)}, so an empty cell may be one it could not fill`,
  );
}

/** How an update's plan reads the workspace: the contacts not read, and what the server's contacts show. */
export interface UpdateReading {
  unread?: RowsRead['unread'];
  shown?: Shown;
}

/** An update's plan: each row's changes to its contact, flagged ones held unless `applyFlagged`. */
export function planUpdate(rows: Iterable<PlanRow>, live: LiveContacts, applyFlagged: boolean, reading: UpdateReading = {}): Plan {
  const { unread, shown = SHOWN_ALL } = reading;
  const emptiedRows: Record<string, number> = {};
  const plan = tally(
    [...rows].map((given): PlannedContact => {
      const base = { place: given.place, id: given.id ?? null, number: null, changes: {}, suspicious: [], ...rowsOf(given, 'update') };
      if (given.errors !== undefined) return { ...base, action: 'invalid', errors: given.errors };
      const { row, unshown } = withoutUnshown(given, shown);
      for (const key of unsentEmptied(given, shown)) emptiedRows[key] = (emptiedRows[key] ?? 0) + 1;
      const notes = unshownNotes(unshown);
      const sentUnshown = Object.keys(unshown).length > 0 ? { not_shown: unshown } : {};
      const said = { ...sentUnshown, ...(notes.length > 0 ? { notes } : {}) };
      if (unread?.ids.has(row.id!)) return { ...base, action: 'update', changes: sentAsIs(row), unread: unread.why, ...said };
      const contact = live.byId.get(row.id!);
      if (contact === undefined) return { ...base, action: 'invalid', errors: [`there is no contact ${row.id} in the workspace`] };
      const before = stateOf(contact);
      const state = copyOf(before);
      const planned: PlannedContact = { ...base, action: 'unchanged', number: String(contact.number), suspicious: [], ...said };
      note(planned, applyRow(state, row, applyFlagged, before));
      planned.changes = differences(before, state);
      planned.action = settledAction(planned);
      // A value this server does not show is sent whatever else the row changes.
      if (planned.not_shown !== undefined) planned.action = 'update';
      planned.after = state;
      return withNumberNote(planned, row.number);
    }),
  );
  if (Object.keys(emptiedRows).length > 0) plan.unsent_emptied = emptiedRows;
  return plan;
}

/**
 * An update's row with a number other than the contact's: the published API changes no number on
 * update, so the plan says it is left. A spreadsheet's decimal of the contact's own number
 * (`447911123458.00`) is that number, no other.
 */
function withNumberNote(contact: PlannedContact, number: string | undefined): PlannedContact {
  if (number === undefined || contact.number === null) return contact;
  if (normalizeNumber(withoutDecimalZeros(number)) === normalizeNumber(contact.number)) return contact;
  const note = `the number "${number}" is not applied: an update does not change a contact's number`;
  return { ...contact, notes: [...(contact.notes ?? []), note] };
}

/** A delete's plan (`contacts delete --from`): each id deleted, or already absent; one not read is sent, deleted or found gone. */
export function planDelete(rows: Iterable<PlanRow>, live: LiveContacts, unread?: RowsRead['unread']): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      const contact = live.byId.get(row.id!);
      const notRead = unread?.ids.has(row.id!) === true;
      return {
        place: row.place,
        action: contact === undefined && !notRead ? 'absent' : 'delete',
        id: row.id!,
        number: contact === undefined ? null : String(contact.number),
        changes: {},
        suspicious: [],
        ...rowsOf(row, 'delete'),
        ...(notRead ? { unread: unread!.why } : {}),
      };
    }),
  );
}
