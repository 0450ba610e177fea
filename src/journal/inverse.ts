// The inverse of a journaled change against the live workspace, as a plan (commands/contacts/plan.ts,
// shown by its renderer) and the requests that carry it out. Per record, newest first:
// - a contact the change updated: each value it changed set back, where the contact still holds
//   the change's value; a value that is neither the change's new value nor its old one was changed
//   again since, and the contact is left alone (flagged) unless `force`;
// - a contact it created: deleted, unless changed since (flagged; `force` deletes it); an import's
//   is found by its number and compared with the values its rows predicted (records.ts predicted);
// - a contact it deleted: created again with all its values (a new id), unless its number is
//   taken again by then (flagged whatever `force` says: the API keeps numbers unique).
// Pure: the live contacts come in read.
import type { ContactCreateBody, ContactUpdateBody } from '../api/schemas/index.js';
import {
  differences,
  stateOf,
  type Change,
  type ContactState,
  type LiveContacts,
  type Plan,
  type PlannedContact,
} from '../commands/contacts/plan.js';
import { normalizeNumber, type Contact } from '../api/schemas/index.js';
import { shownByContact } from '../commands/contacts/plan-unshown.js';
import type { ContactImage, ContactRecord, JournalRecord, ResourceRecord } from './records.js';
import type { ResourceStep } from './resource-inverse.js';
import { tally } from '../commands/contacts/plan-tally.js';

/** One request of an undo: what it sends, and the record before it (for the undo's own journal). */
export type UndoStep =
  | { op: 'update'; id: number; body: ContactUpdateBody; before: Contact }
  | { op: 'delete'; id: number; before: Contact }
  | { op: 'create'; body: ContactCreateBody; was: number }
  | ResourceStep;

export interface Inverse {
  plan: Plan;
  steps: UndoStep[];
}

const stateOfImage = (image: ContactImage) => stateOf(image as unknown as Contact);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** A value as the plan compares it: a group list in name order. */
const comparable = (value: unknown) => (Array.isArray(value) ? [...value].sort() : value);

function valueAt(state: ContactState, key: string): unknown {
  if (key.startsWith('fields.')) return state.fields[key.slice('fields.'.length)] ?? null;
  return comparable(state[key as keyof ContactState]);
}

function planned(place: string, action: PlannedContact['action'], id: number | null, number: string | null): PlannedContact {
  return { place, action, id, number, changes: {}, suspicious: [] };
}

/** The update body that sets `keys` back to `target` (the name always: the API requires it). */
function restoreBody(keys: string[], target: ContactImage, current: Contact): ContactUpdateBody {
  const body: ContactUpdateBody = { name: keys.includes('name') ? target.name : current.name };
  for (const key of keys) {
    if (key === 'email') body.email = target.email;
    else if (key === 'gender') body.gender = target.gender as ContactUpdateBody['gender'];
    else if (key === 'status') body.status = target.status;
    else if (key === 'contact_groups') body.contact_groups = target.contact_groups.map((group) => group.id);
    else if (key.startsWith('fields.')) {
      const name = key.slice('fields.'.length);
      body.fields = { ...body.fields, [name]: target.fields[name] ?? '' };
    }
  }
  return body;
}

function createBody(image: ContactImage): ContactCreateBody {
  return {
    number: image.number,
    name: image.name,
    ...(image.email !== null ? { email: image.email } : {}),
    ...(image.gender !== null ? { gender: image.gender as ContactCreateBody['gender'] } : {}),
    status: image.status,
    ...(Object.keys(image.fields).length > 0 ? { fields: image.fields } : {}),
    ...(image.contact_groups.length > 0 ? { contact_groups: image.contact_groups.map((group) => group.id) } : {}),
  };
}

const shown = (value: unknown) => JSON.stringify(value ?? null);

function undoUpdate(record: ContactRecord, place: string, live: LiveContacts, force: boolean, steps: UndoStep[]): PlannedContact {
  const before = record.before!;
  const current = live.byId.get(before.id);
  const contact = planned(place, 'update', before.id, before.number);
  if (current === undefined) {
    contact.action = 'skipped';
    contact.notes = ['deleted since the change: nothing to set back'];
    return contact;
  }
  const old = stateOfImage(before);
  const now = stateOf(current);
  const made = record.predicted ?? (record.after === null ? now : stateOfImage(record.after));
  const changed = differences(old, made);
  const restore: Record<string, Change> = {};
  const since: string[] = [];
  for (const [key, change] of Object.entries(changed)) {
    const value = valueAt(now, key);
    if (same(value, comparable(change.from))) continue;
    restore[key] = { from: value, to: change.from };
    if (!same(value, comparable(change.to)))
      since.push(`${key} is ${shown(value)} now, neither ${shown(change.to)} (the change's) nor ${shown(change.from)} (before it)`);
  }
  if (since.length > 0 && !force) {
    contact.action = 'skipped';
    contact.notes = since.map((why) => `changed since: ${why}; left as it is (--force sets it back)`);
    return contact;
  }
  if (Object.keys(restore).length === 0) {
    contact.action = 'unchanged';
    return contact;
  }
  contact.changes = restore;
  if (since.length > 0) contact.notes = since.map((why) => `changed since: ${why}; set back (--force)`);
  steps.push({ op: 'update', id: before.id, body: restoreBody(Object.keys(restore), before, current), before: current });
  return contact;
}

/**
 * The contact a create made, as it is now: by the id the server gave it, or, for an import's
 * (known by its number), the contact holding that number; with the values the change left it with.
 */
function createdNow(record: ContactRecord, live: LiveContacts): { current: Contact | undefined; made: ContactState; number: string } {
  if (record.after !== null)
    return { current: live.byId.get(record.after.id), made: stateOfImage(record.after), number: record.after.number };
  const number = record.number!;
  const current = live.byNumber.get(normalizeNumber(number));
  return { current, made: current === undefined ? record.predicted! : asShownBy(record.predicted!, current), number };
}

/**
 * Predicted values as `current` can show them: a server whose contacts show no groups (or no custom
 * fields) gives nothing to compare the rows' groups with, so they are not taken as changed since.
 */
function asShownBy(predicted: ContactState, current: Contact): ContactState {
  const shown = shownByContact(current);
  return {
    ...predicted,
    ...(shown.contact_groups ? {} : { contact_groups: [] }),
    ...(shown.fields ? {} : { fields: {} }),
  };
}

function undoCreate(record: ContactRecord, place: string, live: LiveContacts, force: boolean, steps: UndoStep[]): PlannedContact {
  const { current, made, number } = createdNow(record, live);
  const contact = planned(place, 'delete', current === undefined ? record.id : Number(current.id), number);
  if (current === undefined) {
    contact.action = 'absent';
    return contact;
  }
  const since = Object.entries(differences(made, stateOf(current))).map(
    ([key, change]) => `${key} is ${shown(change.to)} now, not ${shown(change.from)} as the change made it`,
  );
  if (since.length > 0 && !force) {
    contact.action = 'skipped';
    contact.notes = since.map((why) => `changed since: ${why}; kept (--force deletes it)`);
    return contact;
  }
  if (since.length > 0) contact.notes = since.map((why) => `changed since: ${why}; deleted (--force)`);
  steps.push({ op: 'delete', id: Number(current.id), before: current });
  return contact;
}

function undoDelete(record: ContactRecord, place: string, live: LiveContacts, steps: UndoStep[]): PlannedContact {
  const before = record.before!;
  const contact = planned(place, 'create', null, before.number);
  if (live.byId.has(before.id)) {
    contact.action = 'unchanged';
    contact.id = before.id;
    contact.notes = ['still in the workspace: nothing to create'];
    return contact;
  }
  const taken = live.byNumber.get(before.number);
  if (taken !== undefined) {
    contact.action = 'skipped';
    contact.notes = [`its number is contact ${taken.id}'s now: not created again`];
    return contact;
  }
  const state = stateOfImage(before);
  contact.changes = { number: { from: null, to: before.number }, ...differences(stateOf(undefined), state) };
  contact.notes = [`was contact ${before.id}: created again with a new id`];
  steps.push({ op: 'create', body: createBody(before), was: before.id });
  return contact;
}

/** The undo of one record of another resource, as its plan entry; its request is pushed on `steps` (resource-inverse.ts). */
export type OtherRecords = (record: ResourceRecord, place: string, steps: UndoStep[]) => PlannedContact;

/**
 * The undo of `records` (failed ones left out) against `live`; a record of another resource is
 * planned by `others`.
 */
export function inverseOf(
  records: JournalRecord[],
  failed: ReadonlySet<number>,
  live: LiveContacts,
  force: boolean,
  others: OtherRecords,
): Inverse {
  const steps: UndoStep[] = [];
  const contacts: PlannedContact[] = [];
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index];
    const place = `record ${index + 1}`;
    if (record.kind === 'resource') contacts.push(others(record, place, steps));
    else if (record.id !== null && failed.has(record.id)) {
      const contact = planned(place, 'unchanged', record.id, record.before?.number ?? record.number ?? null);
      contact.notes = ['its request failed: the change did not touch it'];
      contacts.push(contact);
    } else if (record.op === 'create' && (record.after !== null || (record.predicted !== undefined && record.number !== undefined)))
      contacts.push(undoCreate(record, place, live, force, steps));
    else if (record.op === 'update' && record.before !== null) contacts.push(undoUpdate(record, place, live, force, steps));
    else if (record.op === 'delete' && record.before !== null) contacts.push(undoDelete(record, place, live, steps));
    else {
      const contact = planned(place, 'skipped', record.id, record.number ?? null);
      contact.notes = [record.unknown ?? 'no before-image was taken: cannot be undone'];
      contacts.push(contact);
    }
  }
  return { plan: tally(contacts), steps };
}
