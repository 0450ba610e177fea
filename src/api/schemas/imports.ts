import * as z from 'zod';
import { idish, paginationQuery, timestamps } from './common.js';

const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const IMPORT_ERRORS_KEPT = 100;

export const importRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  status: z.enum(IMPORT_STATUSES),
  contact_group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  file_name: z.string(),
  total_rows: z.number().int(),
  processed_rows: z.number().int(),
  created_count: z.number().int(),
  updated_count: z.number().int(),
  failed_count: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  ...timestamps,
  finished_at: z.string().nullable(),
});
export type ContactImport = z.infer<typeof importRecord>;

/** The non-file fields of the multipart form; `file` is checked by the route. */
export const importCreateBody = z.object({
  name: z.string().trim().max(255).optional(),
  contact_groups: idish.optional(),
});

export const importListQuery = paginationQuery;
