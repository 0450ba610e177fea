// `wsm users list [--page] [--per-page] [--all]`
import type { User } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine, LIST_FLAGS } from '../declare.js';
import { listing, parsePageFlags, renderListing, type Listing, type PageFlags } from '../shared/list.js';
import { workspaceClient } from '../shared/verb.js';
import { userColumns } from './show.js';

export function parse({ opts }: CommandLine<typeof LIST_FLAGS>, ctx: Context): PageFlags {
  return parsePageFlags(ctx, opts);
}

export async function run(ctx: Context, flags: PageFlags): Promise<Listing<User>> {
  const client = await workspaceClient(ctx);
  return listing(flags, { page: (q) => client.users.list(q), pages: (q, s) => client.users.list(q).pages(s) }, {});
}

export function render(ctx: Context, users: Listing<User>): Promise<void> {
  return renderListing(ctx, users, { columns: userColumns, noun: 'users' });
}
