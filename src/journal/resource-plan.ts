// A resource record (a label, a role, the partner defaults...) as a plan shows it: named by its
// description's noun and id (`label 3`), each field that differs `before -> after`, a created
// record's fields as it was made. Shared by `wsm history show` and the undo's plan.
import { CATALOG } from '../api/descriptions/catalog.js';
import type { Change, PlannedContact } from '../commands/contacts/plan.js';
import type { RecordOp, ResourceRecord } from './records.js';
import type { JsonValue, ResourceImage } from './resource-image.js';

/** Fields that name a record rather than say what it holds: never compared nor set back. */
const IDENTITY = new Set(['id', 'workspace_id']);

/** `label 3`, `contact group 7`, `the partner defaults`. */
export function recordLabel(record: Pick<ResourceRecord, 'resource' | 'id'>): string {
  if (record.resource === 'permissions') return 'the partner defaults';
  return `${CATALOG[record.resource].noun}${record.id === null ? '' : ` ${record.id}`}`;
}

const sameValue = (a: JsonValue | undefined, b: JsonValue | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Each field that differs between two images (either may be absent: a create, a delete). */
function imageChanges(before: ResourceImage | null, after: ResourceImage | null): Record<string, Change> {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, Change> = {};
  for (const key of keys) {
    if (IDENTITY.has(key)) continue;
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (!sameValue(from, to)) changes[key] = { from, to };
  }
  return changes;
}

/** One entry of a plan for a resource record. */
export function plannedRecord(record: ResourceRecord, place: string, action: PlannedContact['action'] | RecordOp): PlannedContact {
  return { place, action, id: record.id, number: null, changes: {}, suspicious: [], label: recordLabel(record) };
}

/** Why a group was made for a change's contacts rather than asked for itself (records.ts `implied`), by an import or by an undo. */
const IMPLIED = {
  import: 'made by the import: its rows named this group, which the workspace lacked',
  undo: 'made again by this undo for the contacts it brought back that were in it',
};

/** A journaled resource record as the change's plan shows it; `by` says what made a change's implied groups. */
export function recordAsPlanned(record: ResourceRecord, place: string, by: keyof typeof IMPLIED = 'import'): PlannedContact {
  const planned = plannedRecord(record, place, record.op);
  if (record.op !== 'delete') planned.changes = imageChanges(record.before, record.after);
  const notes = [
    ...(record.unknown !== undefined ? [record.unknown] : []),
    ...(record.unkept ?? []).map((field) => `${field}: sent, not kept (an undo cannot set it back)`),
    ...(record.implied === true ? [IMPLIED[by]] : []),
  ];
  if (notes.length > 0) planned.notes = notes;
  return planned;
}
