// `wsm workspace create <name>` (extension): not scoped to a workspace, so none is needed.
import { workspaceCreateBody } from '../../api/schemas/index.js';
import { checkLocal, verb } from '../shared/verb.js';
import { workspaceColumns } from './show.js';

export const run = verb(async (ctx, { args }) => {
  checkLocal(workspaceCreateBody, { name: args[0] }, 'workspace');
  const client = await ctx.client();
  const { data } = await client.workspaces.create(args[0]);
  ctx.output.message(`Created workspace ${data.id}. Use it with: wsm workspace use ${data.id}`);
  await ctx.output.record(data, { columns: workspaceColumns });
});
