// `wsm templates get <id>`
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { templateDetailColumns } from './show.js';

export const run = verb(async (ctx, { args }) => {
  const id = parseId(args[0], 'template id');
  const client = await workspaceClient(ctx);
  const { data } = await client.templates.get(id);
  await ctx.output.record(data, { columns: templateDetailColumns });
});
