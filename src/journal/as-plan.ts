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

export function changeAsPlan(records: JournalRecord[], failed: readonly number[] = []): Plan {
  const failures = new Set(failed);
  const contacts = records.map((record, index): PlannedContact => {
    if (record.kind === 'resource') return recordAsPlanned(record, `record ${index + 1}`);
    const image = record.after ?? record.before;
    const contact: PlannedContact = {
      place: `record ${index + 1}`,
      action: record.op,
      id: record.id,
      number: image?.number ?? record.number ?? null,
      changes: record.op === 'delete' ? {} : differences(stateOfImage(record.before), record.predicted ?? stateOfImage(record.after)),
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
