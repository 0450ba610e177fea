// The undo of a resource record (a label, a role, a user, the partner defaults...) against the
// record as it is now, through the operations its description has and the server offers:
// - an update: each field it changed set back (the update body's fields, a `role_id` from the
//   record's `role`), unless a field holds neither the change's value nor the one before
//   (flagged, left alone unless `force`);
// - a create: deleted where the resource has a delete (unless changed since: flagged, `force`);
// - a delete: made again from its before-image (a new id), where it has a create, unless another
//   record holds its unique name by then (flagged, not sent: the server would refuse it).
// Where the API has nothing to invert with (no delete of users; a contact group's delete is an
// extension the published API lacks; a template deleted at the provider; an import's file; a
// password, which is never kept), the plan says so for that record and counts it as not undone.
// Pure: the records as they are now, and which operations the server has, come in read.
import type { z } from 'zod';
import { CATALOG, type ResourceKey } from '../api/descriptions/catalog.js';
import type { ResourceDescription } from '../api/descriptions/types.js';
import type { Change, PlannedContact } from '../commands/contacts/plan.js';
import type { Contact } from '../api/schemas/index.js';
import { countOf } from '../cli/text.js';
import type { OtherRecords, UndoStep } from './inverse.js';
import type { ResourceRecord } from './records.js';
import type { JsonValue, ResourceImage } from './resource-image.js';
import { plannedRecord } from './resource-plan.js';
import { IRREVERSIBLE_DELETES, LOST_WITH_DELETE } from './undo-reach.js';
import type { ReadRecord } from './resource-read.js';

/** One request of an undo of a resource record, and the record before it (for the undo's own journal). */
export interface ResourceStep {
  op: 'resource';
  does: 'update' | 'delete' | 'create';
  resource: ResourceKey;
  /** The record's id (null for the partner defaults, and for a record created again). */
  id: number | null;
  body?: Record<string, JsonValue>;
  before: ResourceImage | null;
  /** A record created again: the id it had. */
  was?: number;
  /** A group made again for the contacts this undo puts back in it: journaled as an import's group is (records.ts). */
  implied?: true;
}

/** What an undo knows of the server: each record as it is now, and which operations it has. */
export interface LiveResources {
  descriptions: Map<ResourceKey, ResourceDescription>;
  /** `labels:3` -> the record now. */
  records: Map<string, ReadRecord>;
  /** `labels.delete` -> false where the server lacks that extension. */
  offered: Map<string, boolean>;
  /** `labels:3` (deleted by the change, gone now) -> the other record holding its unique name now. */
  holders: Map<string, Holder>;
}

/** A record holding a unique value (a name) a deleted record had. */
export interface Holder {
  field: string;
  value: JsonValue;
  id: number;
}

export const liveKey = (record: Pick<ResourceRecord, 'resource' | 'id'>) => `${record.resource}:${record.id}`;

const shown = (value: unknown) => JSON.stringify(value ?? null);
const same = (a: unknown, b: unknown) => shown(a) === shown(b);

function bodyKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape === undefined ? [] : Object.keys(shape);
}

/** A body field's value in an image: the field itself, or `role_id` read from the record's `role`. */
function valueOf(image: ResourceImage | null, key: string): JsonValue | undefined {
  if (image === null) return undefined;
  if (key in image) return image[key];
  const related = key.endsWith('_id') ? image[key.slice(0, -3)] : undefined;
  return typeof related === 'object' && related !== null && !Array.isArray(related) && 'id' in related ? related.id : undefined;
}

function operationOf(record: ResourceRecord, does: ResourceStep['does']): string {
  return record.resource === 'permissions' && does === 'update' ? 'setPartnerDefaults' : does;
}

/** What an undo cannot take back: how many records, and the groups an import made that stay, each in a sentence the result repeats. */
export interface NotUndone {
  count: number;
  stays?: string[];
}

/**
 * The contacts a group holds now (where the server says) less those the undo's contact steps,
 * planned before it, take out of it (deleted, or set back to groups without it).
 */
function membersLeft(group: number, now: ResourceImage, steps: readonly UndoStep[]): number | undefined {
  if (typeof now.contacts_count !== 'number') return undefined;
  const inIt = (contact: Contact) => (contact.contact_groups ?? []).some((each) => Number(each.id) === group);
  const out = steps.filter(
    (step) =>
      (step.op === 'delete' && inIt(step.before)) ||
      (step.op === 'update' && inIt(step.before) && step.body.contact_groups !== undefined && !step.body.contact_groups.includes(group)),
  );
  return now.contacts_count - out.length;
}

/** What a group made again holds when the undo brings back contacts that were in it (remade-groups.ts). */
const REGROUPED = 'made first: the contacts this undo brings back that were in it go back in it under its new id';

/**
 * The planner of each resource record of an undo; `cannot` counts the records it cannot undo;
 * `regrouped` names the groups (by the id they had) whose contacts this undo brings back into them.
 */
export function resourceInverse(
  live: LiveResources,
  force: boolean,
  cannot: NotUndone,
  regrouped: ReadonlySet<number> = new Set(),
): OtherRecords {
  const nouns = (record: ResourceRecord) =>
    record.resource === 'permissions' ? 'the partner defaults' : `${CATALOG[record.resource].noun}s`;
  /** Why the server cannot make `does` for this record, or undefined where it can. */
  const lacking = (record: ResourceRecord, does: ResourceStep['does']): string | undefined => {
    const operation = live.descriptions.get(record.resource)?.operations[operationOf(record, does)];
    if (operation?.client == null) return `the API has no ${does} for ${nouns(record)}`;
    if (live.offered.get(`${record.resource}.${operation.name}`) === false)
      return `this server has no ${does} for ${nouns(record)} (an extension of wsm serve the published API lacks)`;
    return undefined;
  };
  const notUndone = (planned: PlannedContact, why: string): PlannedContact => {
    cannot.count++;
    return { ...planned, action: 'skipped', notes: [...(planned.notes ?? []), `cannot be undone: ${why}`] };
  };
  const keysOf = (record: ResourceRecord, ...operations: string[]) => {
    const description = live.descriptions.get(record.resource);
    return [...new Set(operations.flatMap((name) => bodyKeys(description?.operations[name]?.body)))];
  };

  function undoUpdate(record: ResourceRecord, planned: PlannedContact, now: ReadRecord, steps: ResourceStep[]): PlannedContact {
    if (record.before === null) return notUndone(planned, record.unknown ?? 'no before-image was taken');
    const missing = lacking(record, 'update');
    if (missing !== undefined) return notUndone(planned, missing);
    if ('gone' in now) return { ...planned, action: 'skipped', notes: ['deleted since the change: nothing to set back'] };
    if ('unknown' in now) return notUndone(planned, `it cannot be read now (${now.unknown})`);
    const keys = keysOf(record, operationOf(record, 'update')).filter((key) => valueOf(record.before, key) !== undefined);
    const restore: Record<string, Change> = {};
    const since: string[] = [];
    for (const key of keys) {
      const [was, made, current] = [valueOf(record.before, key), valueOf(record.after ?? now.image, key), valueOf(now.image, key)];
      if (same(was, made) || same(current, was)) continue;
      restore[key] = { from: current ?? null, to: was ?? null };
      if (!same(current, made))
        since.push(`${key} is ${shown(current)} now, neither ${shown(made)} (the change's) nor ${shown(was)} (before it)`);
    }
    const unkept = (record.unkept ?? []).map((field) => `${field}: not kept by the journal, not set back`);
    if (since.length > 0 && !force) {
      planned.notes = since.map((why) => `changed since: ${why}; left as it is (--force sets it back)`);
      return { ...planned, action: 'skipped' };
    }
    if (since.length > 0) planned.notes = since.map((why) => `changed since: ${why}; set back (--force)`);
    if (Object.keys(restore).length === 0)
      return unkept.length > 0
        ? notUndone({ ...planned, notes: unkept }, 'what it changed is not kept')
        : { ...planned, action: 'unchanged' };
    const body = Object.fromEntries(Object.keys(restore).map((key) => [key, valueOf(record.before, key) ?? null]));
    steps.push({ op: 'resource', does: 'update', resource: record.resource, id: record.id, body, before: now.image });
    if (unkept.length > 0) cannot.count++;
    return { ...planned, changes: restore, notes: [...(planned.notes ?? []), ...unkept] };
  }

  /** A group an import made, on a server that cannot delete groups: it stays, said in the plan and again in the result. */
  function groupStays(record: ResourceRecord, planned: PlannedContact): PlannedContact {
    const stays = `contact group ${shown(record.after?.name)} stays: this server cannot delete contact groups`;
    (cannot.stays ??= []).push(stays);
    cannot.count++;
    return { ...planned, action: 'skipped', notes: [stays] };
  }

  function undoCreate(record: ResourceRecord, planned: PlannedContact, now: ReadRecord, steps: UndoStep[]): PlannedContact {
    if (record.after === null || record.id === null) return notUndone(planned, record.unknown ?? 'the record it created is not known');
    const missing = lacking(record, 'delete');
    if (missing !== undefined) return record.implied === true ? groupStays(record, planned) : notUndone(planned, missing);
    if ('gone' in now) return { ...planned, action: 'absent' };
    if ('unknown' in now) return notUndone(planned, `it cannot be read now (${now.unknown})`);
    const since = keysOf(record, 'create', 'update')
      .filter((key) => valueOf(record.after, key) !== undefined && !same(valueOf(record.after, key), valueOf(now.image, key)))
      .map((key) => `${key} is ${shown(valueOf(now.image, key))} now, not ${shown(valueOf(record.after, key))} as the change made it`);
    // A group an import made is the change's while no contact is left in it once the undo has taken
    // out the import's; one asked for itself (`groups create`, an apply) is deleted whoever joined it.
    const left = record.implied === true ? membersLeft(record.id, now.image, steps) : undefined;
    if (left !== undefined && left > 0) since.push(`it holds ${countOf(left, 'contact')} the undo leaves in it`);
    if (since.length > 0 && !force)
      return { ...planned, action: 'skipped', notes: since.map((why) => `changed since: ${why}; kept (--force deletes it)`) };
    if (since.length > 0) planned.notes = since.map((why) => `changed since: ${why}; deleted (--force)`);
    steps.push({ op: 'resource', does: 'delete', resource: record.resource, id: record.id, before: now.image });
    return { ...planned, action: 'delete' };
  }

  function undoDelete(record: ResourceRecord, planned: PlannedContact, now: ReadRecord, steps: ResourceStep[]): PlannedContact {
    if (record.before === null || record.id === null) return notUndone(planned, record.unknown ?? 'no before-image was taken');
    const missing = IRREVERSIBLE_DELETES[record.resource] ?? lacking(record, 'create');
    if (missing !== undefined) return notUndone(planned, missing);
    if ('image' in now) return { ...planned, action: 'unchanged', notes: ['still there: nothing to create'] };
    // As a contact whose number another holds: flagged, never sent (the server keeps names unique), whatever `force` says.
    const holder = live.holders.get(liveKey(record));
    if (holder !== undefined) {
      const by = `${CATALOG[record.resource].noun} ${holder.id}`;
      return { ...planned, action: 'skipped', notes: [`its ${holder.field} ${shown(holder.value)} is ${by}'s now: not made again`] };
    }
    const body = Object.fromEntries(
      keysOf(record, 'create').flatMap((key) => {
        const value = valueOf(record.before, key);
        return value === undefined || value === null ? [] : [[key, value]];
      }),
    );
    const regroups = record.resource === 'groups' && regrouped.has(record.id);
    const lost = regroups ? REGROUPED : LOST_WITH_DELETE[record.resource];
    steps.push({
      op: 'resource',
      does: 'create',
      resource: record.resource,
      id: null,
      body,
      before: null,
      was: record.id,
      ...(regroups ? { implied: true as const } : {}),
    });
    return {
      ...planned,
      action: 'create',
      changes: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, { from: null, to: value }])),
      notes: [`was ${planned.label}: created again with a new id`, ...(lost !== undefined ? [lost] : [])],
    };
  }

  return (record, place, steps) => {
    const planned = plannedRecord(record, place, record.op);
    const now = live.records.get(liveKey(record)) ?? { unknown: 'not read' };
    const mine = steps as ResourceStep[];
    if (record.op === 'update') return undoUpdate(record, planned, now, mine);
    if (record.op === 'create') return undoCreate(record, planned, now, steps);
    return undoDelete(record, planned, now, mine);
  };
}
