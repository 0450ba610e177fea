// `wsm contacts get <id>` (an extension endpoint: a backend without it is told apart from a 404).
import { parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { get } from '../contacts.js';
import { contactDetailColumns } from './columns.js';
import { contactColumnsFor } from './export-format.js';

export const run: VerbRun = typedRun<typeof get>(async (ctx, { args }) => {
  const id = parseId(args[0], 'contact id');
  const client = await workspaceClient(ctx);
  // With -o csv the field names (columns) are read while the contact is.
  const [{ data }, columns] = await Promise.all([client.contacts.get(id), contactColumnsFor(ctx, client, contactDetailColumns)]);
  await ctx.output.record(data, { columns });
});
