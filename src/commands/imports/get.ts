// `wsm imports get <id>` (extension endpoint)
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { importDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args }) => {
  const id = parseId(args[0]);
  const client = await workspaceClient(ctx);
  const { data } = await client.imports.get(id);
  await ctx.output.record(data, { columns: importDetailColumns });
});
