// `wsm permissions list`: the API groups names ({contacts: [...]}); we print one permission a
// row (group, name) so that `-q` gives a list `permissions set` reads back. Entries may be names
// or objects with a `name` (the published API leaves the element type open): both print as the name.
import type { PermissionEntry } from '../../api/resources/workspaces.js';
import type { Column } from '../../cli/columns.js';
import type { Context } from '../../cli/context.js';
import { workspaceClient } from '../shared/verb.js';

export type PermissionRow = PermissionEntry;

export const permissionColumns: Column<PermissionRow>[] = [
  { key: 'group', header: 'GROUP' },
  { key: 'name', header: 'PERMISSION' },
];

export function parse(): void {}

export async function run(ctx: Context): Promise<PermissionRow[]> {
  const client = await workspaceClient(ctx);
  return client.permissions.list();
}

export async function render(ctx: Context, permissions: PermissionRow[]): Promise<void> {
  await ctx.output.list(permissions, { columns: permissionColumns, idKey: 'name' });
}
