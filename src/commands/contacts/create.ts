// `wsm contacts create --number <n> [--name] [--email] [--gender] [--inactive] [--group <id>]... [--avatar <file>] [--field k=v]...`
import { verb, workspaceClient } from '../shared/verb.js';
import { createRequest } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { opts }) => {
  const { body, avatar } = await createRequest(opts);
  const client = await workspaceClient(ctx);
  const { data } = await client.contacts.create(body, { avatar });
  ctx.output.message(`Created contact ${data.id} (${data.number}).`);
  await ctx.output.record(data, { columns: contactDetailColumns });
});
