// `wsm contacts update <id> --name <n> [--email] [--gender] [--active|--inactive] [--group <id>]... [--avatar] [--field k=v]...`,
// or many: `wsm contacts update --from <file|-> [flags for every row] [--dry-run] [--concurrency n]`
import { UsageError } from '../../cli/errors.js';
import { showWritten } from '../shared/written.js';
import { parseId, str, verb, workspaceClient } from '../shared/verb.js';
import { runBulk } from './bulk.js';
import { bulkUpdateFlags, updateRequest, warnUnkeptFields } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run = verb(async (ctx, { args, opts }) => {
  const from = str(opts.from);
  if (from !== undefined) {
    if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
    if (opts.avatar !== undefined) throw new UsageError('--avatar goes with one contact id, not --from');
    await runBulk(ctx, 'update', { from, dryRun: opts.dryRun === true, flags: bulkUpdateFlags(opts) }, opts);
    return;
  }
  if (opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
  if (args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
  if (str(opts.name) === undefined) throw new UsageError('--name is required: the API requires the name on every update');
  const id = parseId(args[0]);
  const { body, avatar } = await updateRequest(opts);
  const client = await workspaceClient(ctx);
  const record = await showWritten(ctx, await client.contacts.update(id, body, { avatar }), { noun: 'contact', columns: contactDetailColumns, id });
  warnUnkeptFields(ctx, body.fields, record);
});
