// `wsm contacts update <id> [--name <n>] [--email] [--gender] [--active|--inactive] [--group <id>]...
//  [--add-group <id>]... [--remove-group <id>]... [--avatar] [--field k=v]...`
// The API requires the name on every update; without --name (and for --add-group/--remove-group,
// which edit the current groups) the contact is read first. That read is the GET-one extension:
// a server without it is told apart (exit 1, as for any extension it lacks), and the command says
// which flag to give instead.
import type { Written } from '../../api/answers.js';
import { UnsupportedEndpointError, UpdatedInPartError } from '../../api/errors.js';
import type { Contact, ContactUpdateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CONTACT_UPDATE_FLAGS } from '../contacts.js';
import type { CommandLine } from '../declare.js';
import { showWritten } from '../shared/written.js';
import { sendingClient } from '../shared/sending-client.js';
import { namingFields, parseId } from '../shared/verb.js';
import { CONTACT_FLAGS, inFlagWords, mergeUpdate, updateRequest, warnUnkeptFields, type ContactUpdateFlags } from './body.js';
import { contactDetailColumns } from './columns.js';
import { refuseBulkFlags } from './bulk-flags.js';
import { beforeUpdate, recordSingle } from '../../journal/contact-change.js';

/** The contact's id, and the flags as given: the body is made by run, which reads an avatar file. */
export interface ContactUpdateOptions {
  id: number;
  flags: ContactUpdateFlags;
}

/** The server's answer for the contact, and the body sent (the custom fields it kept are checked against it). */
export interface ContactUpdated {
  id: number;
  answer: Written<Contact>;
  body: ContactUpdateBody;
}

export function parse({ args, opts }: CommandLine<typeof CONTACT_UPDATE_FLAGS>): ContactUpdateOptions {
  refuseBulkFlags(opts);
  if (args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
  return { id: parseId(args[0], 'contact id'), flags: opts };
}

export async function run(ctx: Context, options: ContactUpdateOptions): Promise<ContactUpdated> {
  const { id } = options;
  const update = await updateRequest(ctx, options.flags).catch(namingFields(CONTACT_FLAGS)); // its check before reading the contact too
  const client = await sendingClient(ctx);
  let current;
  if (update.readsCurrent) {
    try {
      current = (await client.contacts.get(id)).data;
    } catch (error) {
      if (!(error instanceof UnsupportedEndpointError)) throw error;
      // Like every extension the server lacks: exit 1, saying what works instead.
      const missing = update.body.name === undefined ? '--name (the API requires the name on every update)' : 'the whole list with --group';
      throw new UnsupportedEndpointError(error.operation, error.response, `wsm cannot keep what the contact holds, so pass ${missing}`);
    }
  }
  const body = mergeUpdate(update, current);
  const before = await beforeUpdate(ctx, client, id, body, current);
  const answer = await client.contacts
    .update(id, body, { avatar: update.avatar })
    .catch(async (error: unknown) => {
      // The form's values went in before the clears failed: recorded, so that undo sets them back.
      if (error instanceof UpdatedInPartError) await recordSingle(ctx, 'update', id, before, error.update.contact as Contact | undefined);
      throw error;
    })
    .catch(inFlagWords(options.flags))
    .catch(namingFields(CONTACT_FLAGS, body));
  await recordSingle(ctx, 'update', id, before, answer.data);
  return { id, answer, body };
}

export async function render(ctx: Context, { id, answer, body }: ContactUpdated): Promise<void> {
  const record = await showWritten(ctx, answer, { noun: 'contact', columns: contactDetailColumns, id });
  warnUnkeptFields(ctx, body.fields, record);
}
