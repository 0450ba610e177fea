// How contact imports print. The published API shows none of an import's fields: each cell reads only what
// the server sent (a missing counter is empty, never `undefined`).
import type { ContactImport } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';
import { countText, rowName } from '../../cli/text.js';

export const importColumns: Column<ContactImport>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'status', header: 'STATUS' },
  { key: 'processed_rows', header: 'ROWS', show: rowsDone },
  { key: 'created_count', header: 'NEW' },
  { key: 'updated_count', header: 'UPDATED' },
  { key: 'failed_count', header: 'FAILED' },
  { key: 'created_at', header: 'CREATED' },
];

export const importDetailColumns: Column<ContactImport>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'status', header: 'Status' },
  { key: 'file_name', header: 'File' },
  { key: 'contact_group', header: 'Group', show: (i) => (i.contact_group ? `${i.contact_group.name} (${i.contact_group.id})` : '') },
  { key: 'total_rows', header: 'Rows' },
  { key: 'processed_rows', header: 'Processed' },
  { key: 'created_count', header: 'Created' },
  { key: 'updated_count', header: 'Updated' },
  { key: 'failed_count', header: 'Failed' },
  // One line a row: on a terminal each error starts its own line under the label.
  { key: 'errors', header: 'Errors', show: errorLines },
  { key: 'created_at', header: 'Created at' },
  { key: 'finished_at', header: 'Finished at' },
];

/** The record's errors, one a line, and where the rest are when it holds only the first. */
function errorLines(record: ContactImport): string {
  const errors = Array.isArray(record.errors) ? record.errors : [];
  const lines = errors.map((e) => `${rowName(e)}: ${e.message}`);
  const more = typeof record.errors_total === 'number' ? record.errors_total - errors.length : 0;
  if (more > 0) lines.push(`… ${countText(more)} more: \`wsm imports errors ${record.id}\` lists every one`);
  return lines.join('\n');
}

/** `processed/total` when both are known, the one that is known otherwise, else empty. */
function rowsDone(record: ContactImport): string {
  const done = record.processed_rows as number | undefined;
  const total = record.total_rows as number | undefined;
  if (done !== undefined && done !== null && total !== undefined && total !== null) return `${done}/${total}`;
  return String(done ?? total ?? '');
}
