// `wsm contacts update <id> --name <n> [--email] [--gender] [--active|--inactive] [--group <id>]... [--avatar] [--field k=v]...`
import { showWritten } from '../shared/written.js';
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { updateRequest, warnUnkeptFields } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args, opts }) => {
  const id = parseId(args[0]);
  const { body, avatar } = await updateRequest(opts);
  const client = await workspaceClient(ctx);
  const record = await showWritten(ctx, await client.contacts.update(id, body, { avatar }), { noun: 'contact', columns: contactDetailColumns, id });
  warnUnkeptFields(ctx, body.fields, record);
});
