// `wsm contacts update <id> [--name <n>] [--email] [--gender] [--active|--inactive] [--group <id>]...
//  [--add-group <id>]... [--remove-group <id>]... [--avatar] [--field k=v]...`
// The API requires the name on every update; without --name (and for --add-group/--remove-group,
// which edit the current groups) the contact is read first. That read is the GET-one extension:
// a server without it is told apart (exit 1, as for any extension it lacks), and the command says
// which flag to give instead.
// Many at once: `wsm contacts update --from <file|-> [flags for every row] [--dry-run] [--concurrency n]`.
import { UnsupportedEndpointError } from '../../api/errors.js';
import { UsageError } from '../../cli/errors.js';
import { showWritten } from '../shared/written.js';
import { namingFields, parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { update } from '../contacts.js';
import { runBulk } from './bulk.js';
import { CONTACT_FLAGS, bulkUpdateFlags, mergeUpdate, updateRequest, warnUnkeptFields } from './body.js';
import { contactDetailColumns } from './columns.js';

export const run: VerbRun = typedRun<typeof update>(async (ctx, { args, opts }) => {
  const { from } = opts;
  if (from !== undefined) {
    if (args.length > 0) throw new UsageError('give one contact id or --from, not both');
    if (opts.avatar !== undefined) throw new UsageError('--avatar goes with one contact id, not --from');
    await runBulk(ctx, 'update', { from, dryRun: opts.dryRun === true, flags: bulkUpdateFlags(opts) }, opts);
    return;
  }
  if (opts.dryRun === true) throw new UsageError('--dry-run goes with --from');
  if (args.length === 0) throw new UsageError('give a contact id, or --from <file|-> for many');
  const id = parseId(args[0], 'contact id');
  const update = await updateRequest(opts).catch(namingFields(CONTACT_FLAGS)); // the local check's errors too, as in create
  const client = await workspaceClient(ctx);
  const editsGroups = update.addGroups.length > 0 || update.removeGroups.length > 0;
  const needsCurrent = update.body.name === undefined || (editsGroups && update.body.contact_groups === undefined);
  let current;
  if (needsCurrent) {
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
  const record = await showWritten(
    ctx,
    await client.contacts.update(id, body, { avatar: update.avatar }).catch(namingFields(CONTACT_FLAGS, body)),
    { noun: 'contact', columns: contactDetailColumns, id },
  );
  warnUnkeptFields(ctx, body.fields, record);
});
