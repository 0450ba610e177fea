// `wsm contacts delete <id>`: on a terminal the question names the contact (read through the
// GET-one extension; a server without it is asked about the bare id). Many at once:
// `wsm contacts delete --from <file|-> [--dry-run] [--concurrency n]` (bulk.ts).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CONTACT_DELETE_FLAGS } from '../contacts.js';
import type { CommandLine } from '../declare.js';
import { deleteVerb, type Deleted } from '../shared/delete.js';
import { parseId } from '../shared/verb.js';
import { parseBulk, renderBulk, runBulk, settleBulk, type BulkOptions, type BulkResult } from './bulk.js';
import { describeContact } from './columns.js';

const one = deleteVerb('contacts', (client, id) => client.contacts.delete(id), {
  read: async (client, id) => (await client.contacts.get(id)).data,
  describe: describeContact,
});

/** One contact by id, or many with --from. */
export type ContactDeleteOptions = { id: number } | { bulk: BulkOptions };

export type ContactDeleteResult = { deleted: Deleted } | { bulk: BulkResult };

export function parse({ args, opts }: CommandLine<typeof CONTACT_DELETE_FLAGS>, ctx: Context): ContactDeleteOptions {
  const { from } = opts;
  if (from === undefined) {
    if (opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
    if (args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
    return { id: parseId(args[0], 'contact id') };
  }
  if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
  return { bulk: parseBulk(ctx, 'delete', from, opts) };
}

export async function run(ctx: Context, options: ContactDeleteOptions): Promise<ContactDeleteResult> {
  if ('bulk' in options) return { bulk: await runBulk(ctx, options.bulk) };
  return { deleted: await one.run(ctx, options.id) };
}

export async function render(ctx: Context, result: ContactDeleteResult): Promise<void> {
  if ('bulk' in result) return renderBulk(ctx, result.bulk);
  await one.render(ctx, result.deleted, result.deleted.id);
}

/** --from: the last line and the exit (8 for failed contacts). */
export function settle(ctx: Context, result: ContactDeleteResult, options: ContactDeleteOptions): void {
  if ('bulk' in result && 'bulk' in options) settleBulk(ctx, result.bulk, options.bulk);
}
