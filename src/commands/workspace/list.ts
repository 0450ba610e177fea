// `wsm workspace list`: the workspaces your token reaches (GET /me, an extension), the current one marked.
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';
import { requireWorkspaces, type MyWorkspace } from './mine.js';

const columns: Column<MyWorkspace>[] = [
  { key: 'current', header: ' ', get: (w) => (w.current ? '*' : '') },
  { key: 'id', header: 'ID', fixed: true },
  { key: 'name', header: 'NAME' },
];

export function parse(): void {}

export async function run(ctx: Context): Promise<MyWorkspace[]> {
  const { workspace } = await ctx.settings();
  return requireWorkspaces(await ctx.client(), workspace);
}

export async function render(ctx: Context, workspaces: MyWorkspace[]): Promise<void> {
  const count = await ctx.output.list(workspaces, { columns });
  if (count === 0) ctx.output.message('Your user belongs to no workspace: create one with `wsm workspace create <name>`');
}
