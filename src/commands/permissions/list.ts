// `wsm permissions list`: the API groups names ({contacts: [...]}); we print one permission a
// row (group, name) so that `-q` gives a list `permissions set` reads back. Entries may be names
// or objects with a `name` (api.md leaves the element type open): both print as the name.
import type { PermissionEntry } from '../../api/resources/workspaces.js';
import type { Column } from '../../cli/output.js';
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { list } from '../permissions.js';

export type PermissionRow = PermissionEntry;

export const permissionColumns: Column<PermissionRow>[] = [
  { key: 'group', header: 'GROUP' },
  { key: 'name', header: 'PERMISSION' },
];

export const run: VerbRun = typedRun<typeof list>(async (ctx) => {
  const client = await workspaceClient(ctx);
  await ctx.output.list(await client.permissions.list(), { columns: permissionColumns, idKey: 'name' });
});
