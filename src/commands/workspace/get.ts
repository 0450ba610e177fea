// `wsm workspace get`
import { verb, workspaceClient } from '../shared/verb.js';
import { workspaceColumns } from './show.js';

export const run = verb(async (ctx) => {
  const client = await workspaceClient(ctx);
  const { data } = await client.workspaces.get();
  // api.md leaves the record's shape open: show our columns when present, else whatever came.
  const known = data && typeof data === 'object' && 'name' in data;
  await ctx.output.record(data, known ? { columns: workspaceColumns } : {});
});
