// `wsm users get <id>` (extension endpoint)
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { userDetailColumns } from './show.js';

export const run = verb(async (ctx, { args }) => {
  const id = parseId(args[0], 'user id');
  const client = await workspaceClient(ctx);
  const { data } = await client.users.get(id);
  await ctx.output.record(data, { columns: userDetailColumns });
});
