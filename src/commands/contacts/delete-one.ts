// `wsm contacts delete <id>`: on a terminal the question names the contact (read through the
// GET-one extension; a server without it is asked about the bare id).
import { UsageError } from '../../cli/errors.js';
import type { CONTACT_DELETE_FLAGS } from '../contacts.js';
import type { CommandLine } from '../declare.js';
import { deleteVerb, type Deleted } from '../shared/delete.js';
import type { Context } from '../../cli/context.js';
import { parseId } from '../shared/verb.js';
import { refuseBulkFlags } from './bulk-flags.js';
import { describeContact } from './columns.js';

/** The delete of one contact (deleteVerb journals it, with the contact its question read as the before-image). */
const one = () =>
  deleteVerb('contacts', (client, id) => client.contacts.delete(id), {
    read: async (client, id) => (await client.contacts.get(id)).data,
    describe: describeContact,
  });

export function parse(line: CommandLine<typeof CONTACT_DELETE_FLAGS>): number {
  refuseBulkFlags(line.opts);
  if (line.args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
  return parseId(line.args[0], 'contact id');
}

export const run = (ctx: Context, id: number) => one().run(ctx, id);
export const render = (ctx: Context, deleted: Deleted) => one().render(ctx, deleted, deleted.id);
