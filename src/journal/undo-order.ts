// What an undo of records of other resources than contacts (an apply's, above all) adds to their
// inverse, record by record (resource-inverse.ts):
// - a replacement (the old record's delete, then the new one's create under the same name, as
//   `wsm apply --replace-templates` makes it) is undone whole or not at all: where the old record
//   cannot be made again (a template deleted at the provider), the one made in its place is kept,
//   since deleting it would leave neither;
// - their requests go one at a time, in the plan's order (newest record first: the reverse of the
//   order the change made them), since one may need another done first (the new template deleted
//   before the old one is made again under its name); contacts' requests beside them go several at
//   a time, each run of either once the one before it has ended.
import type { UndoStep, OtherRecords } from './inverse.js';
import type { JournalRecord, ResourceRecord } from './records.js';
import type { ResourceImage } from './resource-image.js';
import { plannedRecord } from './resource-plan.js';

/** How the inverse says a record cannot be undone, before saying why. */
const CANNOT = 'cannot be undone: ';

/** What names a record in its resource: its name, and a template's language. */
const identity = (image: ResourceImage | null) => (image === null ? undefined : JSON.stringify([image.name, image.language ?? null]));

/** The delete a create at `index` follows as its replacement, if it is one. */
function replaced(records: readonly JournalRecord[], index: number): ResourceRecord | undefined {
  const [previous, record] = [records[index - 1], records[index]];
  if (previous?.kind !== 'resource' || record?.kind !== 'resource') return undefined;
  if (previous.op !== 'delete' || record.op !== 'create' || previous.resource !== record.resource) return undefined;
  const name = identity(previous.before);
  return name !== undefined && name === identity(record.after) ? previous : undefined;
}

/**
 * `plan` (the inverse of each resource record), except that the new record of a replacement whose
 * old record cannot be made again is kept, and counted in `cannot` as a record not undone. `probe`
 * plans the old record's undo without counting it (a planner of its own), to learn whether it
 * sends anything.
 */
export function keepingReplacements(
  records: readonly JournalRecord[],
  plan: OtherRecords,
  probe: OtherRecords,
  cannot: { count: number },
): OtherRecords {
  let positions: Map<JournalRecord, number> | undefined;
  return (record, place, steps) => {
    positions ??= new Map(records.map((each, index) => [each, index]));
    const index = positions.get(record) ?? -1;
    const old = replaced(records, index);
    if (old !== undefined) {
      const scratch: UndoStep[] = [];
      const oldPlanned = probe(old, `record ${index}`, scratch);
      // Only an old record that cannot come back keeps the new one (one still there needs nothing).
      if (scratch.length === 0 && oldPlanned.action === 'skipped') {
        const why = oldPlanned.notes?.find((note) => note.startsWith(CANNOT))?.slice(CANNOT.length) ?? 'it is left as it is';
        const kept = `kept: it replaced ${oldPlanned.label ?? 'a record'} (record ${index}), which cannot be made again (${why})`;
        cannot.count++;
        return { ...plannedRecord(record, place, 'skipped'), notes: [kept] };
      }
    }
    return plan(record, place, steps);
  };
}

/** Steps of an undo sent together, and how many at once. */
export interface StepRun {
  steps: UndoStep[];
  concurrency: number;
}

/**
 * The steps in runs, in the plan's order, each sent once the one before it has ended: contacts'
 * requests several at a time, those of other resources one at a time (one may need another done
 * first), so that the groups an import made are deleted once its contacts are.
 */
export function stepRuns(steps: readonly UndoStep[], concurrency: number): StepRun[] {
  const runs: StepRun[] = [];
  let last: UndoStep | undefined;
  for (const step of steps) {
    const resource = step.op === 'resource';
    if (last === undefined || (last.op === 'resource') !== resource) runs.push({ steps: [], concurrency: resource ? 1 : concurrency });
    runs[runs.length - 1].steps.push(step);
    last = step;
  }
  return runs;
}
