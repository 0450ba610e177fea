import * as z from 'zod';
import { idish, paginationQuery, timestamps } from './common.js';

const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const IMPORT_ERRORS_KEPT = 100;

/**
 * One error of an import. `row` is the spreadsheet row (the header is row 1; 0 is the whole file)
 * and `line` the file's line where it starts (they differ after a quoted line break); `failed`:
 * the row was not imported (false for a note, such as a column ignored or a group created).
 * `line` and `failed` are ours: the published API's errors have `row` and `message` only.
 */
export const importError = z.object({
  row: z.number().int(),
  line: z.number().int(),
  message: z.string(),
  failed: z.boolean(),
});
export type ImportError = z.infer<typeof importError>;

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
  /** The first IMPORT_ERRORS_KEPT errors; every one is in GET .../contact-imports/{id}/errors. */
  errors: z.array(importError),
  /** Extension: how many errors the import has in all (beyond the first 100 in `errors`). */
  errors_total: z.number().int(),
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
export const importErrorListQuery = paginationQuery;
