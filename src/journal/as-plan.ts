// A journaled change shown as the plan it carried out (commands/contacts/plan-render.ts prints it):
// `+` a contact created with its values, `~` each value `before -> after` (an import's after as
// its rows predicted it: records.ts), `-` a contact deleted,
// `x` a record whose request failed, `!` one kept without a before-image, and why. A record of
// another resource is shown by resource-plan.ts.
import { differences, stateOf, tally, type PlannedContact, type Plan } from '../commands/contacts/plan.js';
import type { Contact } from '../api/schemas/index.js';
import type { ContactImage, JournalRecord } from './records.js';
import { recordAsPlanned } from './resource-plan.js';

const stateOfImage = (image: ContactImage | null) => stateOf(image === null ? undefined : (image as unknown as Contact));

/** The plan a change carried out; `undo` for a change that undid another (its groups made again are said so). */
export function changeAsPlan(records: JournalRecord[], failed: readonly number[] = [], undo = false): Plan {
  const failures = new Set(failed);
  const contacts = records.map((record, index): PlannedContact => {
    if (record.kind === 'resource') return recordAsPlanned(record, `record ${index + 1}`, undo ? 'undo' : 'import');
    const image = record.after ?? record.before;
    // An update whose outcome was never read (an import without --wait) has no after to compare:
    // its values are not shown as emptied, and the change's note says why.
    const after = record.predicted ?? (record.after === null ? undefined : stateOfImage(record.after));
    const changes =
      record.op === 'delete' || (after === undefined && record.op === 'update')
        ? {}
        : differences(stateOfImage(record.before), after ?? stateOfImage(null));
    const contact: PlannedContact = {
      place: `record ${index + 1}`,
      // An import's contact its rows leave as it was (the same values, or every change held) is unchanged, as the import counts it.
      action: record.op === 'update' && after !== undefined && Object.keys(changes).length === 0 ? 'unchanged' : record.op,
      id: record.id,
      number: image?.number ?? record.number ?? null,
      changes,
      suspicious: [],
    };
    const made = record.after?.number ?? (record.predicted !== undefined ? record.number : undefined);
    if (record.op === 'create' && made !== undefined) contact.changes = { number: { from: null, to: made }, ...contact.changes };
    if (record.unknown !== undefined) contact.notes = [record.unknown];
    if (record.id !== null && failures.has(record.id)) {
      contact.action = 'invalid';
      contact.errors = ['its request failed: nothing was changed'];
    }
    return contact;
  });
  return tally(contacts);
}
