import * as z from 'zod';
import { created, nonEmptyName, paginated, paginationQuery, single, timestamps, updated } from './common.js';

export const groupRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  contacts_count: z.number().int(),
  ...timestamps,
});
export type ContactGroup = z.infer<typeof groupRecord>;

export const groupCreateBody = z.object({ name: nonEmptyName(255) });
export type GroupCreateBody = z.infer<typeof groupCreateBody>;
/** Extension: PUT /contact-groups/{id}. */
export const groupUpdateBody = groupCreateBody;
export type GroupUpdateBody = GroupCreateBody;

export const groupListQuery = paginationQuery;
export const groupListResponse = paginated(groupRecord);
export const groupResponse = single(groupRecord);
export const groupCreatedResponse = created(groupRecord);
export const groupUpdatedResponse = updated(groupRecord);
