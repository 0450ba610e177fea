// `wsm contacts update <id> --name <n> [--email] [--gender] [--active|--inactive] [--group <id>]... [--avatar] [--field k=v]...`
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { updateRequest } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args, opts }) => {
  const id = parseId(args[0]);
  const { body, avatar } = await updateRequest(opts);
  const client = await workspaceClient(ctx);
  const { data } = await client.contacts.update(id, body, { avatar });
  ctx.output.message(`Updated contact ${data.id}.`);
  await ctx.output.record(data, { columns: contactDetailColumns });
});
