// `wsm contacts list [--search q] [--field name=value]... [--page n] [--per-page n] [--all]`
import type { ContactListQuery } from '../../api/resources/contacts.js';
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';
import type { CommandLine } from '../declare.js';
import { listing, parsePageFlags, renderListing, type Listing, type PageFlags } from '../shared/list.js';
import { keyValues, namingFields, workspaceClient } from '../shared/verb.js';
import type { ListPage } from '../../api/pagination.js';
import type { CONTACT_LIST_FLAGS } from '../contacts.js';
import { contactColumns } from './columns.js';
import { contactColumnsFor } from './export-format.js';

export interface ContactListOptions {
  flags: PageFlags;
  search?: string;
  /** --field name=value, as typed (checked by run, after the login, as before the split). */
  field?: string[];
}

/** A page or the walk, and the columns its records print in (with -o csv, the workspace's field names too). */
export interface ContactListing {
  listed: Listing<Contact>;
  columns: Column<Contact>[];
}

export function parse({ opts }: CommandLine<typeof CONTACT_LIST_FLAGS>, ctx: Context): ContactListOptions {
  return {
    flags: parsePageFlags(ctx, opts),
    ...(opts.search !== undefined ? { search: opts.search } : {}),
    ...(opts.field !== undefined ? { field: opts.field } : {}),
  };
}

export async function run(ctx: Context, { flags, search, field }: ContactListOptions): Promise<ContactListing> {
  const client = await workspaceClient(ctx);
  const query: ContactListQuery = {};
  if (search !== undefined) query.search = search;
  const fields = keyValues(field, '--field');
  if (fields !== undefined) query.fields = fields;
  // A server without the field filter: the client read every contact; the user is told once.
  let told = false;
  const said = <P extends ListPage<unknown>>(page: P): P => {
    if (page.meta.filtered_here === true && !told) {
      told = true;
      ctx.output.warn(
        'this server does not filter contacts by custom field (an extension of wsm serve): wsm read every contact and kept the matches',
      );
    }
    return page;
  };
  const columns = await contactColumnsFor(ctx, client, contactColumns);
  const listed = await listing(
    flags,
    { page: async (q) => said(await client.contacts.list(q)), pages: (q, s) => tellingPages(client.contacts.list(q).pages(s), said) },
    query,
  ).catch(namingFields({ fields: '--field', search: '--search' }, { ...query }));
  return { listed, columns };
}

export function render(ctx: Context, { listed, columns }: ContactListing): Promise<void> {
  return renderListing(ctx, listed, { columns, noun: 'contacts' });
}

async function* tellingPages<P extends ListPage<unknown>>(pages: AsyncIterable<P>, said: (page: P) => P): AsyncGenerator<P> {
  for await (const page of pages) yield said(page);
}
