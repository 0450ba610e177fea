// `wsm contacts list [--search q] [--page n] [--per-page n] [--all]`
import type { ContactListQuery } from '../../api/resources/contacts.js';
import { parsePageFlags, renderList } from '../shared/list.js';
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { list } from '../contacts.js';
import { contactColumns } from './columns.js';
import { contactColumnsFor } from './export-format.js';

export const run: VerbRun = typedRun<typeof list>(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const client = await workspaceClient(ctx);
  const query: ContactListQuery = {};
  if (opts.search !== undefined) query.search = opts.search;
  await renderList(
    ctx,
    flags,
    { page: (q) => client.contacts.list(q), pages: (q, s) => client.contacts.pages(q, s) },
    query,
    { columns: await contactColumnsFor(ctx, client, contactColumns), noun: 'contacts' },
  );
});
