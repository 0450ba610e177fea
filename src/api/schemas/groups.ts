import * as z from 'zod';
import { nfc, nonEmptyName, paginationQuery, timestamps } from './common.js';

export const groupRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  contacts_count: z.number().int(),
  ...timestamps,
});
export type ContactGroup = z.infer<typeof groupRecord>;

/** A group's name is matched and stored trimmed and composed (NFC), as contact text is: `Café` typed either way is one group. */
const groupName = nonEmptyName(255).transform(nfc);
export const groupCreateBody = z.object({ name: groupName.describe('Name of the new contact group.') });
/** Extension: PUT /contact-groups/{id}. */
export const groupUpdateBody = z.object({ name: groupName.describe('New name of the group.') });

export const groupListQuery = paginationQuery;
