// The contact groups an import makes: a row naming a group the workspace lacks makes it on `wsm
// serve` (the published import reads no contact_groups column). They are part of the change, so
// undo can delete them once it has undone the contacts. The server's answer names them only in a
// message of wsm serve's, among the first 100 of the import's errors, so they are found by the
// group list instead: read before the file is sent (where it has a contact_groups column and the
// import is waited for) and again once --wait saw it finish. A group the rows name that was not
// there before and is there after is the import's. One someone else made meanwhile under such a
// name cannot be told apart: undo then finds contacts in it that it does not take out, and keeps it.
import type { WsmClient } from '../api/client.js';
import { nfc } from '../api/schemas/common.js';
import { listGroups } from '../commands/shared/group-flag.js';
import type { ResourceRecord } from './records.js';
import { resourceImage } from './resource-image.js';

export class ImportGroups {
  private constructor(
    private readonly client: WsmClient,
    private readonly before: ReadonlySet<string>,
  ) {}

  /** The workspace's group names before the upload, or why they could not be read. */
  static async before(client: WsmClient): Promise<ImportGroups | string> {
    const groups = await listGroups(client);
    if (groups instanceof Error) return `the contact groups could not be read (${groups.message})`;
    return new ImportGroups(client, new Set(groups.map((group) => nfc(group.name))));
  }

  /**
   * A record per group the import made (a create, marked `implied`): named by the rows sent
   * (`names`), absent before the upload, listed now; or why they could not be read.
   */
  async made(names: ReadonlySet<string>): Promise<ResourceRecord[] | string> {
    const named = new Set([...names].map(nfc));
    if (![...named].some((name) => !this.before.has(name))) return [];
    const groups = await listGroups(this.client);
    if (groups instanceof Error) return `the contact groups could not be read after it (${groups.message})`;
    return groups.flatMap((group): ResourceRecord[] => {
      const name = nfc(group.name);
      if (this.before.has(name) || !named.has(name)) return [];
      const image = resourceImage(group);
      if (typeof image === 'string') return [];
      return [{ kind: 'resource', resource: 'groups', op: 'create', id: Number(group.id), before: null, after: image, implied: true }];
    });
  }
}
