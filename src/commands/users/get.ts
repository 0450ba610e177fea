// `wsm users get <id>` (extension endpoint)
import { parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { get } from '../users.js';
import { userDetailColumns } from './show.js';

export const run: VerbRun = typedRun<typeof get>(async (ctx, { args }) => {
  const id = parseId(args[0], 'user id');
  const client = await workspaceClient(ctx);
  const { data } = await client.users.get(id);
  await ctx.output.record(data, { columns: userDetailColumns });
});
