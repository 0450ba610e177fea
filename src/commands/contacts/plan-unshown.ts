// What an import's plan may promise of groups and custom fields. The published API shows no
// import file format, and a server whose contacts do not show `contact_groups` (or `fields`) gives
// no way to see whether its import keeps them: such cells are said as sent, never as changes, and
// a group the workspace lacks is not said to be created (docs/import-file.md, decisions.md).
import type { WsmClient } from '../../api/client.js';
import type { Contact } from '../../api/schemas/index.js';
import { countOf, countText } from '../../cli/text.js';
import { BEYOND_HEADER, type UnreadableCounts } from '../../cli/unreadable-cells.js';
import { listed, placesOf } from './places.js';
import type { LiveContacts, PlanRow } from './plan.js';

/** Which of a contact's groups and custom fields a server's contacts show. */
export interface Shown {
  contact_groups: boolean;
  fields: boolean;
}

/** Both shown: the plan promises what the rows set (wsm serve, or what nothing says otherwise). */
export const SHOWN_ALL: Shown = { contact_groups: true, fields: true };

/** Which of its groups and custom fields one contact, as the server gave it, shows. */
export function shownByContact(contact: Contact): Shown {
  const record = contact as { contact_groups?: unknown; fields?: unknown };
  return {
    contact_groups: Array.isArray(record.contact_groups),
    fields: typeof record.fields === 'object' && record.fields !== null && !Array.isArray(record.fields),
  };
}

/** What a server's contacts show, from contacts it gave; undefined when it gave none. */
function shownBy(contacts: Iterable<Contact>): Shown | undefined {
  let seen = false;
  const shown: Shown = { contact_groups: false, fields: false };
  for (const contact of contacts) {
    seen = true;
    const one = shownByContact(contact);
    shown.contact_groups ||= one.contact_groups;
    shown.fields ||= one.fields;
    if (shown.contact_groups && shown.fields) break;
  }
  return seen ? shown : undefined;
}

/**
 * What a server's contacts show, from `contacts` read from it; with none to learn from (an empty
 * workspace), from whether it has wsm serve's extensions (decisions.md §6 adds them together), asked
 * with the labels list, an extension read that changes nothing. Not known is not shown.
 */
export async function shownOn(client: WsmClient, contacts: Iterable<Contact>): Promise<Shown> {
  const shown = shownBy(contacts);
  if (shown !== undefined) return shown;
  const extensions = await client.labels.hasExtensions();
  return { contact_groups: extensions === true, fields: extensions === true };
}

/** What a server's contacts show, from its first contact (or, with none, as shownOn says). */
export async function shownByFirst(client: WsmClient, signal?: AbortSignal): Promise<Shown> {
  return shownOn(client, (await client.contacts.list({ per_page: 1 }, { signal })).data);
}

/**
 * What a server's contacts show, asked once, when first needed: from its contacts when `live` holds them, else
 * from its first contact. A server that cannot be asked is taken to show both, so that the check's
 * own rules hold.
 */
export function askShown(client: WsmClient, live?: LiveContacts): () => Promise<Shown> {
  let asked: Promise<Shown> | undefined;
  return () => (asked ??= (live !== undefined ? shownOn(client, live.byId.values()) : shownByFirst(client)).catch(() => SHOWN_ALL));
}

/**
 * Whether a server checks rows as wsm does, asked once, when first needed: `wsm serve`, the server
 * with its extensions (the labels list, read-only), runs the same schema as the check. A server
 * that cannot be asked is taken to, so that the check's own rules hold.
 */
export function askWsmRules(client: WsmClient): () => Promise<boolean> {
  let asked: Promise<boolean> | undefined;
  return () =>
    (asked ??= client.labels.hasExtensions().then(
      (has) => has !== false,
      () => true,
    ));
}

/** A row's values without those the server does not show, and those values (by plan key: `contact_groups`, `fields.city`). */
export function withoutUnshown(row: PlanRow, shown: Shown): { row: PlanRow; unshown: Record<string, unknown> } {
  const unshown: Record<string, unknown> = {};
  if (row.sets === undefined) return { row, unshown };
  const { groups, fields, ...sets } = row.sets;
  if (groups !== undefined && groups.names.length > 0 && !shown.contact_groups) unshown.contact_groups = groups.names;
  if (!shown.fields) for (const [name, value] of Object.entries(fields ?? {})) if (value !== '') unshown[`fields.${name}`] = value;
  const kept = {
    ...sets,
    ...(groups !== undefined && shown.contact_groups ? { groups } : {}),
    ...(fields !== undefined && shown.fields ? { fields } : {}),
  };
  return { row: { ...row, sets: kept }, unshown };
}

/** Adds a row's unshown values to its contact's: groups joined, a later field value replacing an earlier. */
export function addUnshown(into: Record<string, unknown> | undefined, unshown: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...into, ...unshown };
  if (into?.contact_groups !== undefined && unshown.contact_groups !== undefined)
    merged.contact_groups = [...new Set([...(into.contact_groups as string[]), ...(unshown.contact_groups as string[])])];
  return merged;
}

/** What a plan key (`contact_groups`, `fields.city`) a server's contacts do not show is, in a plan's words. */
export const unshownWhat = (key: string): string => (key === 'contact_groups' ? 'groups' : 'custom fields');

/** The plan's lines on what this server's contacts do not show, one per column (`rows`: the rows sending each) and group. */
export function unshownLines(rows: Record<string, number>, lacking: string[]): string[] {
  const lines = Object.entries(rows).map(
    ([key, count]) =>
      `? ${key} sent for ${countOf(count, 'row')}: this server's contacts do not show ${unshownWhat(key)}, so whether its import keeps them is not known`,
  );
  for (const name of lacking)
    lines.push(`? contact group ${JSON.stringify(name)} is not in the workspace: this server's import is not known to create it`);
  return lines;
}

/**
 * A column's cells the check refused where the server may take them (cli/unreadable-cells.ts), sent
 * as written: `contact_groups cell not read in 1 row (row 2), sent as written: …`, `email in 1 row
 * (row 3) is not an address wsm serve accepts; …`, `values beyond the header's columns in 1 row …`.
 */
export function unreadableSentence(key: string, { rows, first }: UnreadableCounts[string]): string {
  const where = `${countOf(rows, 'row')} (${rows > first.length ? `${placesOf(first)} and ${countText(rows - first.length)} more` : listed(first)})`;
  if (key === 'email') return `email in ${where} is not an address wsm serve accepts; this server's rule is not known: sent as written`;
  if (key === 'name')
    return `name in ${where} holds no visible character, which wsm serve refuses; this server's rule is not known: sent as written`;
  if (key === BEYOND_HEADER)
    return `values beyond the header's columns in ${where}, sent as written: whether this server ignores them is not known`;
  return (
    `${key} ${rows === 1 ? 'cell' : 'cells'} not read in ${where}, sent as written: ` +
    `this server's contacts do not show ${unshownWhat(key)}, so whether its import keeps ${rows === 1 ? 'it' : 'them'} is not known`
  );
}

/** Under its contact: `? email: "x@y.z" sent as written, this server's rule not known: …`, what the check said of a cell sent as written. */
export function unreadableCellLine(key: string, cell: string, why: string): string {
  const said =
    key === 'email' || key === 'name' ? "this server's rule not known" : key === BEYOND_HEADER ? 'not known to be ignored' : 'not read';
  return `? ${key}: ${JSON.stringify(cell)} sent as written, ${said}: ${why}`;
}

/** The plan's lines on the cells the check could not read, one per column. */
export const unreadableLines = (counts: UnreadableCounts = {}): string[] =>
  Object.entries(counts).map(([key, count]) => `? ${unreadableSentence(key, count)}`);
