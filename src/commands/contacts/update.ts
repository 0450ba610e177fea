// `wsm contacts update <id> [--name <n>] [--email] [--gender] [--active|--inactive] [--group <id>]...
//  [--add-group <id>]... [--remove-group <id>]... [--avatar] [--field k=v]...`
// The API requires the name on every update; without --name (and for --add-group/--remove-group,
// which edit the current groups) the contact is read first. That read is the GET-one extension:
// a server without it is told apart, and the command says which flag to give instead.
import { UnsupportedEndpointError } from '../../api/errors.js';
import { UsageError } from '../../cli/errors.js';
import { parseId, verb, workspaceClient } from '../shared/verb.js';
import { mergeUpdate, updateRequest } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args, opts }) => {
  const id = parseId(args[0], 'contact id');
  const update = await updateRequest(opts);
  const client = await workspaceClient(ctx);
  const editsGroups = update.addGroups.length > 0 || update.removeGroups.length > 0;
  const needsCurrent = update.body.name === undefined || (editsGroups && update.body.contact_groups === undefined);
  let current;
  if (needsCurrent) {
    try {
      current = (await client.contacts.get(id)).data;
    } catch (error) {
      if (!(error instanceof UnsupportedEndpointError)) throw error;
      const missing = update.body.name === undefined ? '--name (the API requires the name on every update)' : 'the whole list with --group';
      throw new UsageError(`this server cannot read one contact, so wsm cannot keep what it holds: pass ${missing}`);
    }
  }
  const body = mergeUpdate(update, current);
  const { data } = await client.contacts.update(id, body, { avatar: update.avatar });
  ctx.output.message(`Updated contact ${data.id}.`);
  await ctx.output.record(data, { columns: contactDetailColumns });
});
