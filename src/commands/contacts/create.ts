// `wsm contacts create --number <n> [--name] [--email] [--gender] [--inactive] [--group <id>]... [--avatar <file>] [--field k=v]...`
import { showWritten } from '../shared/written.js';
import { namingFields, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { create } from '../contacts.js';
import { CONTACT_FLAGS, createRequest, warnUnkeptFields } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run: VerbRun = typedRun<typeof create>(async (ctx, { opts }) => {
  // Named before the local check too: a bad value reads as the flag typed, here and from the server.
  const { body, avatar } = await createRequest(opts).catch(namingFields(CONTACT_FLAGS));
  const client = await workspaceClient(ctx);
  const answer = await client.contacts.create(body, { avatar }).catch(namingFields(CONTACT_FLAGS, body));
  const record = await showWritten(ctx, answer, { noun: 'contact', columns: contactDetailColumns, describe: (contact) => (contact.number ? ` (${contact.number})` : '') });
  warnUnkeptFields(ctx, body.fields, record);
});
