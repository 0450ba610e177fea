// `wsm permissions list`: the API groups names ({contacts: [...]}); we print one permission a
// row (group, name) so that `-q` gives a list `permissions set` reads back.
import type { Column } from '../../cli/output.js';
import { verb, workspaceClient } from '../shared/verb.js';

export interface PermissionRow {
  group: string;
  name: string;
}

export const permissionColumns: Column<PermissionRow>[] = [
  { key: 'group', header: 'GROUP' },
  { key: 'name', header: 'PERMISSION' },
];

export function flatten(groups: Array<Record<string, unknown[]>>): PermissionRow[] {
  return groups.flatMap((entry) => Object.entries(entry).flatMap(([group, names]) => (names ?? []).map((name) => ({ group, name: String(name) }))));
}

export const run = verb(async (ctx) => {
  const client = await workspaceClient(ctx);
  const { data } = await client.permissions.list();
  await ctx.output.list(flatten(data), { columns: permissionColumns, idKey: 'name' });
});
