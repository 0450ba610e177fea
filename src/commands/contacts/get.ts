// `wsm contacts get <id>` (an extension endpoint: a backend without it is told apart from a 404).
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args }) => {
  const id = parseId(args[0], 'contact id');
  const client = await workspaceClient(ctx);
  const { data } = await client.contacts.get(id);
  await ctx.output.record(data, { columns: contactDetailColumns });
});
