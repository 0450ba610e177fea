// `wsm contacts update --from <file|-> [flags for every row] [--dry-run] [--strict] [--concurrency n]`:
// many contacts, each row's changes (bulk.ts).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CONTACT_UPDATE_FLAGS } from '../contacts.js';
import type { CommandLine } from '../declare.js';
import { bulkUpdateFlags } from './body.js';
import { parseBulk, type BulkOptions } from './bulk.js';

export { renderBulk as render, runBulk as run, settleBulk as settle } from './bulk.js';

export function parse({ args, opts }: CommandLine<typeof CONTACT_UPDATE_FLAGS>, ctx: Context): BulkOptions {
  if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
  if (opts.avatar !== undefined) throw new UsageError('--avatar goes with one contact id, not --from');
  // Each row would need its own groups to add to; a contact_groups column or --group says them whole.
  for (const [flag, given] of [
    ['--add-group', opts.addGroup],
    ['--remove-group', opts.removeGroup],
  ] as const)
    if (given !== undefined && given.length > 0)
      throw new UsageError(`${flag} goes with one contact id, not --from: give the groups whole, in a contact_groups column or --group`);
  return parseBulk(ctx, 'update', opts.from!, opts, bulkUpdateFlags(opts));
}
