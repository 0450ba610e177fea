// The plans of `contacts update --from` and `contacts delete --from`: each row names its contact by
// id (several rows naming one id come merged, bulk-input.ts mergeRepeated), against the live
// workspace. An update's plan is what its run sends: the held changes left out, a contact with
// nothing left to change not sent.
import { normalizeNumber } from '../../api/schemas/index.js';
import {
  applyRow,
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

/** An update's plan: each row's changes to its contact, flagged ones held unless `applyFlagged`. */
export function planUpdate(rows: Iterable<PlanRow>, live: LiveContacts, applyFlagged: boolean): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      const base = { place: row.place, id: row.id ?? null, number: null, changes: {}, suspicious: [], ...rowsOf(row, 'update') };
      if (row.errors !== undefined) return { ...base, action: 'invalid', errors: row.errors };
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

/** A delete's plan (`contacts delete --from`): each id deleted, or already absent. */
export function planDelete(rows: Iterable<PlanRow>, live: LiveContacts): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      const contact = live.byId.get(row.id!);
      return {
        place: row.place,
        action: contact === undefined ? 'absent' : 'delete',
        id: row.id!,
        number: contact === undefined ? null : String(contact.number),
        changes: {},
        suspicious: [],
        ...rowsOf(row, 'delete'),
      };
    }),
  );
}
