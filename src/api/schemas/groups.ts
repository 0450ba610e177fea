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

export const groupCreateBody = z.object({ name: nonEmptyName(255) });
/** Extension: PUT /contact-groups/{id}. */
export const groupUpdateBody = groupCreateBody;

export const groupListQuery = paginationQuery;
