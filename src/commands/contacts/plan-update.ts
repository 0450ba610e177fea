// The plans of `contacts update --from` and `contacts delete --from`: each row names its contact by
// id (several rows naming one id come merged, bulk-input.ts mergeRepeated), against the live
// workspace. An update's plan is what its run sends: the held changes left out, a contact with
// nothing left to change not sent. A contact the read did not reach (RowsRead's `unread`) is never
// called unchanged or absent: its row is sent as it is, and the plan says so.
import { normalizeNumber } from '../../api/schemas/index.js';
import type { RowsRead } from './plan-live.js';
import {
  applyRow,
  type Change,
  copyOf,
  differences,
  note,
  settledAction,
  stateOf,
  tally,
  type LiveContacts,
  type Plan,
  type PlannedContact,
  type PlanRow,
} from './plan.js';

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

/** An update's plan: each row's changes to its contact, flagged ones held unless `applyFlagged`. */
export function planUpdate(rows: Iterable<PlanRow>, live: LiveContacts, applyFlagged: boolean, unread?: RowsRead['unread']): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      const base = { place: row.place, id: row.id ?? null, number: null, changes: {}, suspicious: [], ...rowsOf(row, 'update') };
      if (row.errors !== undefined) return { ...base, action: 'invalid', errors: row.errors };
      if (unread?.ids.has(row.id!)) return { ...base, action: 'update', changes: sentAsIs(row), unread: unread.why };
      const contact = live.byId.get(row.id!);
      if (contact === undefined) return { ...base, action: 'invalid', errors: [`there is no contact ${row.id} in the workspace`] };
      const before = stateOf(contact);
      const state = copyOf(before);
      const planned: PlannedContact = { ...base, action: 'unchanged', number: String(contact.number), suspicious: [] };
      note(planned, applyRow(state, row, applyFlagged));
      planned.changes = differences(before, state);
      planned.action = settledAction(planned);
      planned.after = state;
      return withNumberNote(planned, row.number);
    }),
  );
}

/** An update's row with a number other than the contact's: the published API changes no number on update, so the plan says it is left. */
function withNumberNote(contact: PlannedContact, number: string | undefined): PlannedContact {
  if (number === undefined || contact.number === null || normalizeNumber(number) === normalizeNumber(contact.number)) return contact;
  const note = `the number "${number}" is not applied: an update does not change a contact's number`;
  return { ...contact, notes: [note] };
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
