// `wsm workspace get`
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { get } from '../workspace.js';
import { workspaceColumns } from './show.js';

export const run: VerbRun = typedRun<typeof get>(async (ctx) => {
  const client = await workspaceClient(ctx);
  const { data } = await client.workspaces.get();
  // api.md leaves the record's shape open: show our columns when present, else whatever came.
  const known = data && typeof data === 'object' && 'name' in data;
  await ctx.output.record(data, known ? { columns: workspaceColumns } : {});
});
