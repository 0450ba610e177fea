// A contact's image names its groups by id and its custom fields by name, as they were at the
// change. By the undo a group may be deleted (or made again under a new id) and a field deleted,
// and the server refuses a whole create or update that names one (422): the plan would promise a
// contact the run never makes again. So the undo reads the live groups and fields first, when an
// image names any: a group this undo makes again keeps the id it had, which the run replaces with
// the new one (remade-groups.ts); another group gone is found by its name, else left out, and a
// field gone is left out, each said as a note on its record, so the plan shows what the requests send.
import type { WsmClient } from '../api/client.js';
import type { ContactState, Plan } from '../commands/contacts/plan.js';
import { cannotListContacts } from '../commands/contacts/plan-live.js';
import type { ContactImage, JournalRecord } from './records.js';

interface LiveNames {
  groups: Set<number>;
  groupByName: Map<string, number>;
  fields: Set<string>;
  /** The groups this undo makes again (groupsMadeAgain): the id each had -> its place in the plan. */
  remade: ReadonlyMap<number, string>;
  /** The groups the change deleted, by id -> the place of the record; the undo brings back contacts without those it does not make again. */
  deleted: ReadonlyMap<number, string>;
  /** The names of the deleted groups a contact was planned without, each with its record's place. */
  without: Map<string, string>;
}

/** The groups a change deleted (an import's undo), by id -> the place of its record. */
const deletedGroups = (records: JournalRecord[]) =>
  new Map(
    records.flatMap((record, index) =>
      record.kind === 'resource' && record.resource === 'groups' && record.op === 'delete' && record.id !== null
        ? [[record.id, `record ${index + 1}`] as const]
        : [],
    ),
  );

const imagesOf = (record: JournalRecord): ContactImage[] =>
  record.kind === 'contact' ? [record.before, record.after].filter((image): image is ContactImage => image !== null) : [];

async function liveNames(client: WsmClient): Promise<LiveNames | undefined> {
  const live: LiveNames = {
    groups: new Set(),
    groupByName: new Map(),
    fields: new Set(),
    remade: new Map(),
    deleted: new Map(),
    without: new Map(),
  };
  try {
    for await (const group of client.groups.list()) {
      live.groups.add(Number(group.id));
      live.groupByName.set(group.name, Number(group.id));
    }
    for await (const field of client.fields.list()) live.fields.add(String(field.name));
  } catch (error) {
    // A token that may not list them, or a server without the list: the images go as kept.
    if (cannotListContacts(error)) return undefined;
    throw error;
  }
  return live;
}

/** An import's predicted values (groups by name alone): a group or field gone since is left out, and said. */
function fittedPrediction(state: ContactState, live: LiveNames, said: Set<string>): ContactState {
  const contact_groups = state.contact_groups.filter((name) => {
    if (live.groupByName.has(name)) return true;
    // Named by the rows, the group may never have been made: a server whose contacts show no groups makes none.
    said.add(`group "${name}" is not in the workspace (deleted since, or never made by the import): left out`);
    return false;
  });
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(state.fields)) {
    if (live.fields.has(name)) fields[name] = value;
    else said.add(`field "${name}" no longer exists: its value ${JSON.stringify(value)} left out`);
  }
  return { ...state, contact_groups, fields };
}

function fitted(image: ContactImage, live: LiveNames, said: Set<string>): ContactImage {
  const contact_groups = image.contact_groups.flatMap((group) => {
    if (live.groups.has(group.id)) return [group];
    const remade = live.remade.get(group.id);
    if (remade !== undefined) {
      said.add(`group "${group.name}" (group ${group.id}) is made again first (${remade}): the contact goes in it under its new id`);
      return [group];
    }
    const again = live.groupByName.get(group.name);
    if (again !== undefined) {
      said.add(`group "${group.name}" was group ${group.id}: it is group ${again} now`);
      return [{ id: again, name: group.name }];
    }
    const deleted = live.deleted.get(group.id);
    if (deleted !== undefined) live.without.set(group.name, deleted);
    said.add(
      deleted !== undefined
        ? `group "${group.name}" (group ${group.id}) is not made again by this undo (${deleted}): the contact comes back without it`
        : `group "${group.name}" (group ${group.id}) no longer exists: left out`,
    );
    return [];
  });
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(image.fields)) {
    if (live.fields.has(name)) fields[name] = value;
    else said.add(`field "${name}" no longer exists: its value ${JSON.stringify(value)} left out`);
  }
  return { ...image, contact_groups, fields };
}

/**
 * The records with their images fitted to the live groups and fields, and what that left out or
 * moved, per record index; `remade` names the groups this undo makes again (groupsMadeAgain), and
 * `regrouped` gives those its contacts go back in.
 */
export async function fitToLiveGroups(
  client: WsmClient,
  records: JournalRecord[],
  remade: ReadonlyMap<number, string>,
): Promise<{ records: JournalRecord[]; notes: Map<number, string[]>; without: string[]; regrouped: ReadonlySet<number> }> {
  const notes = new Map<number, string[]>();
  const names = records.some((record) =>
    [...imagesOf(record), ...(record.kind === 'contact' && record.predicted !== undefined ? [record.predicted] : [])].some(
      (image) => image.contact_groups.length > 0 || Object.keys(image.fields).length > 0,
    ),
  );
  // The contacts go back in a group made again whether or not the live groups can be read: the run sends its new id.
  const regrouped = new Set(
    records
      .flatMap((record) => imagesOf(record).flatMap((image) => image.contact_groups.map((group) => group.id)))
      .filter((id) => remade.has(id)),
  );
  const live = names ? await liveNames(client) : undefined;
  if (live === undefined) return { records, notes, without: [], regrouped };
  live.remade = remade;
  live.deleted = deletedGroups(records);
  const fittedRecords = records.map((record, index) => {
    if (record.kind !== 'contact') return record;
    const said = new Set<string>();
    const fit = (image: ContactImage | null) => (image === null ? null : fitted(image, live, said));
    const result = { ...record, before: fit(record.before), after: fit(record.after) };
    if (record.predicted !== undefined) result.predicted = fittedPrediction(record.predicted, live, said);
    if (said.size > 0) notes.set(index, [...said]);
    return result;
  });
  const without = [...live.without].map(
    ([name, place]) => `contacts come back without contact group "${name}": this undo does not make it again (${place} says why)`,
  );
  return { records: fittedRecords, notes, without, regrouped };
}

/** Adds each record's notes to its contact in the plan (`record N`). */
export function noteFitted(plan: Plan, notes: Map<number, string[]>): void {
  for (const [index, sentences] of notes) {
    const contact = plan.contacts.find((planned) => planned.place === `record ${index + 1}`);
    if (contact !== undefined) contact.notes = [...(contact.notes ?? []), ...sentences];
  }
}
