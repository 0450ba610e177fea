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

const fieldName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(FIELD_NAME_PATTERN, 'The name field must contain only lowercase letters and underscores.');

export const fieldCreateBody = z.object({
  name: fieldName.describe('Name of the new contact field (how contacts.create and field_values name it).'),
});
/** Extension: PUT /contact-fields/{id}. */
export const fieldUpdateBody = z.object({ name: fieldName.describe('New name of the field.') });

export const fieldListQuery = paginationQuery;
