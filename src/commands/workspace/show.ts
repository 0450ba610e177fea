// How a workspace prints.
import type { Workspace } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';

export const workspaceColumns: Column<Workspace>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];
