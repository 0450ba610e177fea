// `wsm workspace list`: the workspaces your token reaches (GET /me, an extension), the current one marked.
import type { Column } from '../../cli/output.js';
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { list } from '../workspace.js';
import { requireWorkspaces, type MyWorkspace } from './mine.js';

const columns: Column<MyWorkspace>[] = [
  { key: 'current', header: ' ', get: (w) => (w.current ? '*' : '') },
  { key: 'id', header: 'ID', fixed: true },
  { key: 'name', header: 'NAME' },
];


export const run: VerbRun = typedRun<typeof list>(async (ctx) => {
  const { workspace } = await ctx.settings();
  const workspaces = await requireWorkspaces(await ctx.client(), workspace);
  const count = await ctx.output.list(workspaces, { columns });
  if (count === 0) ctx.output.message('Your user belongs to no workspace: create one with `wsm workspace create <name>`');
});
