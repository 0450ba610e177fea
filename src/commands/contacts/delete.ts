// `wsm contacts delete <id>`: on a terminal the question names the contact (read through the
// GET-one extension; a server without it is asked about the bare id). Many at once:
// `wsm contacts delete --from <file|-> [--dry-run] [--concurrency n]`.
import { UsageError } from '../../cli/errors.js';
import { deleteRun } from '../shared/delete.js';
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { remove } from '../contacts.js';
import { runBulk } from './bulk.js';
import { describeContact } from './columns.js';

const one = deleteRun('contact', (client, id) => client.contacts.delete(id), {
  read: async (client, id) => (await client.contacts.get(id)).data,
  describe: describeContact,
});

export const run: VerbRun = typedRun<typeof remove>(async (ctx, { args, opts }) => {
  const { from } = opts;
  if (from === undefined) {
    if (opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
    if (args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
    return one(ctx, { args, opts });
  }
  if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
  await runBulk(ctx, 'delete', { from, dryRun: opts.dryRun === true }, opts);
});
