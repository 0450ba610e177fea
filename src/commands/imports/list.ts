// `wsm imports list [--page] [--per-page] [--all]`
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine, LIST_FLAGS } from '../declare.js';
import { listing, parsePageFlags, renderListing, type Listing, type PageFlags } from '../shared/list.js';
import { workspaceClient } from '../shared/verb.js';
import { importColumns } from './columns.js';

export function parse({ opts }: CommandLine<typeof LIST_FLAGS>, ctx: Context): PageFlags {
  return parsePageFlags(ctx, opts);
}

export async function run(ctx: Context, flags: PageFlags): Promise<Listing<ContactImport>> {
  const client = await workspaceClient(ctx);
  return listing(flags, { page: (q) => client.imports.list(q), pages: (q, s) => client.imports.list(q).pages(s) }, {});
}

export function render(ctx: Context, imports: Listing<ContactImport>): Promise<void> {
  return renderListing(ctx, imports, { columns: importColumns, noun: 'imports' });
}
