// `wsm templates get <id>`
import { parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { get } from '../templates.js';
import { templateDetailColumns } from './show.js';

export const run: VerbRun = typedRun<typeof get>(async (ctx, { args }) => {
  const id = parseId(args[0], 'template id');
  const client = await workspaceClient(ctx);
  const { data } = await client.templates.get(id);
  await ctx.output.record(data, { columns: templateDetailColumns });
});
