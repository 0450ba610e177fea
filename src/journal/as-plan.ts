// A journaled change shown as the plan it carried out (commands/contacts/plan-render.ts prints it):
// `+` a contact created with its values, `~` each value `before -> after` (an import's after as
// its rows predicted it: records.ts), `-` a contact deleted,
// `x` a record whose request failed, `!` one kept without a before-image, and why. A record of
// another resource is shown by resource-plan.ts. A failed request and a delete that found its
// contact already gone leave no record: the change's meta names them, each shown on a line of its own.
import { differences, stateOf, type PlannedContact, type Plan } from '../commands/contacts/plan.js';
import type { ResourceKey } from '../api/descriptions/catalog.js';
import type { Contact } from '../api/schemas/index.js';
import type { ChangeMeta, ContactImage, JournalRecord } from './records.js';
import { recordAsPlanned, recordLabel } from './resource-plan.js';
import { tally } from '../commands/contacts/plan-tally.js';

const stateOfImage = (image: ContactImage | null) => stateOf(image === null ? undefined : (image as unknown as Contact));

/** What a change's meta says beyond its records (and `undoes`: a change that undid another says its groups made again so). */
type Unrecorded = Pick<ChangeMeta, 'failed' | 'failed_resources' | 'gone' | 'undoes'>;

/** A line for a record, or for what the meta names without one (its place then empty). */
const line = (place: string, action: PlannedContact['action'], id: number | null, label: string): PlannedContact => ({
  place,
  action,
  id,
  number: null,
  changes: {},
  suspicious: [],
  label,
});

/**
 * The failures no record holds, each named by its resource. A change kept by an earlier wsm names
 * its failed ids without their resource (a contact's or, for an apply, a record of the workspace file's).
 */
function unrecordedFailures(meta: Unrecorded, recorded: ReadonlySet<number>): PlannedContact[] {
  if (meta.failed_resources === undefined)
    return (meta.failed ?? [])
      .filter((id) => !recorded.has(id))
      .map((id) => ({
        ...line('', 'failed', id, `id ${id}`),
        notes: ['the change (kept by an earlier wsm) does not say what this id names'],
      }));
  return Object.entries(meta.failed_resources).flatMap(([resource, ids = []]) =>
    ids
      .filter((id) => resource !== 'contacts' || !recorded.has(id))
      .map((id) => line('', 'failed', id, recordLabel({ resource: resource as ResourceKey, id }))),
  );
}

/** The plan a change carried out. */
export function changeAsPlan(records: JournalRecord[], meta: Unrecorded = {}): Plan {
  const failures = new Set(meta.failed_resources?.contacts ?? meta.failed ?? []);
  const recorded = new Set<number>();
  const contacts = records.map((record, index): PlannedContact => {
    if (record.kind === 'resource') return recordAsPlanned(record, `record ${index + 1}`, meta.undoes !== undefined ? 'undo' : 'import');
    if (record.id !== null) recorded.add(record.id);
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
      contact.action = 'failed';
      contact.changes = {};
    }
    return contact;
  });
  const gone = (meta.gone ?? []).map((id) => line('', 'absent', id, recordLabel({ resource: 'contacts', id })));
  return tally([...contacts, ...unrecordedFailures(meta, recorded), ...gone]);
}
