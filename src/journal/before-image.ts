// The before-image of one contact a single verb is about to change: the contact read through the
// GET-one extension, or, from a server without it (the published API), found in the workspace's
// list when the workspace is small enough to read. Otherwise the journal says why there is none.
import type { WsmClient } from '../api/client.js';
import { NotFoundError } from '../api/errors.js';
import type { Contact } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { cannotListContacts, LIVE_READ_LIMIT, readLiveContactsWithin } from '../commands/contacts/plan-live.js';
import type { LiveContacts } from '../commands/contacts/plan.js';
import { contactImage, type ContactImage } from './records.js';

export type BeforeImage = { image: ContactImage } | { unknown: string };

export async function contactBefore(ctx: Context, client: WsmClient, id: number, known?: Contact): Promise<BeforeImage> {
  if (known !== undefined) return { image: contactImage(known) };
  try {
    return { image: contactImage((await client.contacts.get(id)).data) };
  } catch (error) {
    // The change's own request says what a missing contact is; a token that may not read is asked the list.
    if (error instanceof NotFoundError) return { unknown: `contact ${id}: not found` };
    if (!cannotListContacts(error)) throw error;
  }
  let live: LiveContacts | undefined;
  try {
    live = await readLiveContactsWithin(ctx, client, 4, LIVE_READ_LIMIT);
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
    return { unknown: `contact ${id}: no before-image (the token may not read contacts)` };
  }
  if (live === undefined)
    return { unknown: `contact ${id}: no before-image (the server cannot read one contact and the workspace is too large to list)` };
  const found = live.byId.get(id);
  return found === undefined ? { unknown: `contact ${id}: not in the workspace's list` } : { image: contactImage(found) };
}
