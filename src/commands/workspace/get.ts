// `wsm workspace get`
import type { Workspace } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { workspaceClient } from '../shared/verb.js';
import { workspaceColumns } from './show.js';

export function parse(): void {}

export async function run(ctx: Context): Promise<Workspace> {
  const client = await workspaceClient(ctx);
  return (await client.workspaces.get()).data;
}

export async function render(ctx: Context, workspace: Workspace): Promise<void> {
  // The published API leaves the record's shape open: show our columns when present, else whatever came.
  const known = workspace && typeof workspace === 'object' && 'name' in workspace;
  await ctx.output.record(workspace, known ? { columns: workspaceColumns } : {});
}
