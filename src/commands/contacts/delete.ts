// `wsm contacts delete <id>`, or many: `wsm contacts delete --from <file|-> [--dry-run] [--concurrency n]`
import { UsageError } from '../../cli/errors.js';
import { deleteRun } from '../shared/delete.js';
import { str, verb } from '../shared/verb.js';
import { runBulk } from './bulk.js';

const one = deleteRun('contact', (client, id) => client.contacts.delete(id));

export const run = verb(async (ctx, input) => {
  const from = str(input.opts.from);
  if (from === undefined) {
    if (input.opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
    if (input.args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
    return one(ctx, input);
  }
  if (input.args.length > 0) throw new UsageError('give one contact id or --from, not both');
  await runBulk(ctx, 'delete', { from, dryRun: input.opts.dryRun === true }, input.opts);
});
