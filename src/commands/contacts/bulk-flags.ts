// The flags of `contacts update|delete --from` that mean nothing for one contact.
import { UsageError } from '../../cli/errors.js';

/** --dry-run or --strict without --from: a mistake, said before anything is read. */
export function refuseBulkFlags(opts: { dryRun?: true; strict?: true }): void {
  if (opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
  if (opts.strict === true) throw new UsageError('--strict goes with --from');
}
