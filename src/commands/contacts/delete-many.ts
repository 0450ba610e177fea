// `wsm contacts delete --from <file|-> [--dry-run] [--strict] [--concurrency n]`: many contacts,
// asked about once (bulk.ts).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CONTACT_DELETE_FLAGS } from '../contacts.js';
import type { CommandLine } from '../declare.js';
import { parseBulk, type BulkOptions } from './bulk.js';

export { renderBulk as render, runBulk as run, settleBulk as settle } from './bulk.js';

export function parse({ args, opts }: CommandLine<typeof CONTACT_DELETE_FLAGS>, ctx: Context): BulkOptions {
  if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
  return parseBulk(ctx, 'delete', opts.from!, opts);
}
