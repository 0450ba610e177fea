import * as z from 'zod';
import { nonEmptyName, paginationQuery, timestamps } from './common.js';

const LABEL_COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const labelRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  color: z.string().nullable(),
  ...timestamps,
});
export type Label = z.infer<typeof labelRecord>;

const color = z
  .string()
  .max(7)
  .regex(LABEL_COLOR_PATTERN, 'The color field must be a hex colour such as #1a2b3c.')
  .nullable()
  .describe('Hex colour such as #1a2b3c.');

export const labelCreateBody = z.object({ name: nonEmptyName(255).describe('Name of the new label.'), color: color.optional() });

/** The published API: name, colour, or both; a body with neither is a 422 (decisions.md §3). */
export const labelUpdateBody = z
  .object({ name: nonEmptyName(255).optional().describe('New name of the label.'), color: color.optional() })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.color === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'The name field is required when color is not present.' });
    }
  })
  .meta({ anyOf: [{ required: ['name'] }, { required: ['color'] }] });

export const labelListQuery = paginationQuery;
