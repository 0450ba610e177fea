// `wsm contacts create --number <n> [--name] [--email] [--gender] [--inactive] [--group <id>]... [--avatar <file>] [--field k=v]...`
import type { Written } from '../../api/answers.js';
import type { Contact, ContactCreateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CONTACT_CREATE_FLAGS } from '../contacts.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import { showWritten } from '../shared/written.js';
import { sendingClient } from '../shared/sending-client.js';
import { namingFields } from '../shared/verb.js';
import { CONTACT_FLAGS, createRequest, inFlagWords, warnUnkeptFields } from './body.js';
import { contactDetailColumns } from './columns.js';
import { recordCreate } from '../../journal/contact-change.js';
import { journalReady } from '../../journal/journal.js';

export type ContactCreateOptions = FlagOptions<typeof CONTACT_CREATE_FLAGS>;

/** The server's answer, and the body sent (the custom fields it kept are checked against it). */
export interface ContactCreated {
  answer: Written<Contact>;
  body: ContactCreateBody;
}

/** The flags as given: the body is made and checked by run (an avatar file is read there). */
export function parse({ opts }: CommandLine<typeof CONTACT_CREATE_FLAGS>): ContactCreateOptions {
  return opts;
}

export async function run(ctx: Context, opts: ContactCreateOptions): Promise<ContactCreated> {
  const { body, avatar } = await createRequest(ctx, opts).catch(namingFields(CONTACT_FLAGS));
  const client = await sendingClient(ctx);
  await journalReady(ctx);
  // The client's check and the server's 422 alike: a bad value reads as the flag typed.
  const answer = await client.contacts.create(body, { avatar }).catch(inFlagWords(opts)).catch(namingFields(CONTACT_FLAGS, body));
  await recordCreate(ctx, answer.data);
  return { answer, body };
}

export async function render(ctx: Context, { answer, body }: ContactCreated): Promise<void> {
  const record = await showWritten(ctx, answer, {
    noun: 'contact',
    columns: contactDetailColumns,
    describe: (contact) => (contact.number ? ` (${contact.number})` : ''),
  });
  warnUnkeptFields(ctx, body.fields, record);
}
