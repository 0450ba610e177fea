import * as z from 'zod';
import { nonEmptyName, paginationQuery, timestamps } from './common.js';

export const groupRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  contacts_count: z.number().int(),
  ...timestamps,
});
export type ContactGroup = z.infer<typeof groupRecord>;

export const groupCreateBody = z.object({ name: nonEmptyName(255).describe('Name of the new contact group.') });
/** Extension: PUT /contact-groups/{id}. */
export const groupUpdateBody = z.object({ name: nonEmptyName(255).describe('New name of the group.') });

export const groupListQuery = paginationQuery;
