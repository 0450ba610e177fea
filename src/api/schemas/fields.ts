import * as z from 'zod';
import { paginationQuery, timestamps } from './common.js';

const FIELD_NAME_PATTERN = /^[a-z_]+$/;

export const fieldRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  ...timestamps,
});
export type ContactField = z.infer<typeof fieldRecord>;

export const fieldCreateBody = z.object({
  name: z.string().trim().min(1).max(255).regex(FIELD_NAME_PATTERN, 'The name field must contain only lowercase letters and underscores.'),
});
/** Extension: PUT /contact-fields/{id}. */
export const fieldUpdateBody = fieldCreateBody;

export const fieldListQuery = paginationQuery;
