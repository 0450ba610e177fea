// `wsm contacts list [--search q] [--field name=value]... [--page n] [--per-page n] [--all]`
import type { ContactListQuery } from '../../api/resources/contacts.js';
import { parsePageFlags, renderList } from '../shared/list.js';
import { keyValues, namingFields, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { ListPage } from '../../api/pagination.js';
import type { list } from '../contacts.js';
import { contactColumns } from './columns.js';
import { contactColumnsFor } from './export-format.js';

export const run: VerbRun = typedRun<typeof list>(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const client = await workspaceClient(ctx);
  const query: ContactListQuery = {};
  if (opts.search !== undefined) query.search = opts.search;
  const fields = keyValues(opts.field, '--field');
  if (fields !== undefined) query.fields = fields;
  // A server without the field filter: the client read every contact; the user is told once.
  let told = false;
  const said = <P extends ListPage<unknown>>(page: P): P => {
    if (page.meta.filtered_here === true && !told) {
      told = true;
      ctx.output.warn('this server does not filter contacts by custom field (an extension of wsm serve): wsm read every contact and kept the matches');
    }
    return page;
  };
  await renderList(
    ctx,
    flags,
    { page: async (q) => said(await client.contacts.list(q)), pages: (q, s) => tellingPages(client.contacts.list(q).pages(s), said) },
    query,
    { columns: await contactColumnsFor(ctx, client, contactColumns), noun: 'contacts' },
  ).catch(namingFields({ fields: '--field', search: '--search' }, { ...query }));
});

async function* tellingPages<P extends ListPage<unknown>>(pages: AsyncIterable<P>, said: (page: P) => P): AsyncGenerator<P> {
  for await (const page of pages) yield said(page);
}
