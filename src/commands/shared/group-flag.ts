// `--group <id>` of an import and of `contacts update --from`, checked against the workspace's
// groups before anything is sent: the server refuses a whole request naming a group it lacks, so a
// plan must neither promise that group nor show it as made, and an upload must not be sent only
// to be refused once all of it has arrived.
import type { WsmClient } from '../../api/client.js';
import { RequestValidationError } from '../../api/errors.js';
import { nfc } from '../../api/schemas/common.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import type { BulkItem } from '../contacts/bulk-input.js';
import { cannotListContacts } from '../contacts/plan-live.js';

/** Every group of the workspace, or the error saying this token or server cannot list them (any other is thrown). */
export async function listGroups(client: WsmClient): Promise<ContactGroup[] | Error> {
  const groups: ContactGroup[] = [];
  try {
    for await (const group of client.groups.list()) groups.push(group);
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
    return error as Error;
  }
  return groups;
}

/**
 * The workspace's groups, id to name composed (NFC); undefined where this token or server cannot
 * list them, unless `required` (a file naming groups needs their ids: that failure is said).
 */
export async function workspaceGroups(client: WsmClient, required = false): Promise<Map<number, string> | undefined> {
  const groups = await listGroups(client);
  if (groups instanceof Error) {
    if (required) throw groups;
    return undefined;
  }
  return new Map(groups.map((group) => [Number(group.id), nfc(group.name)]));
}

/** Exit 2, nothing sent, when an id of `--group` names no group of `groups`. */
export function refuseMissingGroups(groups: ReadonlyMap<number, string>, ids: readonly number[]): void {
  const missing = ids.filter((id) => !groups.has(id));
  if (missing.length === 0) return;
  const named = missing.length === 1 ? `${missing[0]}` : `${missing.slice(0, -1).join(', ')} or ${missing.at(-1)}`;
  throw new RequestValidationError(
    `--group: this workspace has no contact group with id ${named} (\`wsm groups list\` lists them): nothing was sent`,
  );
}

/** The groups of the workspace when `ids` name only those, or where they cannot be listed (undefined); otherwise exit 2. */
export async function checkGroupFlag(client: WsmClient, ids: readonly number[]): Promise<Map<number, string> | undefined> {
  const groups = await workspaceGroups(client);
  if (groups !== undefined) refuseMissingGroups(groups, ids);
  return groups;
}

/** The items whose groups `--group` gives (no contact_groups cell of their own) name them, so that their plan shows the groups' names. */
export function namedFlagGroups(items: BulkItem[], ids: readonly number[], groups: ReadonlyMap<number, string>): BulkItem[] {
  if (ids.length === 0) return items;
  const groupNames = ids.map((id) => groups.get(id)!);
  return items.map((item) => (item.groupNames === undefined && item.body?.contact_groups !== undefined ? { ...item, groupNames } : item));
}
