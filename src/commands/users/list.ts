// `wsm users list [--page] [--per-page] [--all]`
import { parsePageFlags, renderList } from '../shared/list.js';
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { list } from '../users.js';
import { userColumns } from './show.js';

export const run: VerbRun = typedRun<typeof list>(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const client = await workspaceClient(ctx);
  await renderList(ctx, flags, { page: (q) => client.users.list(q), pages: (q, s) => client.users.pages(q, s) }, {}, { columns: userColumns, noun: 'users' });
});
