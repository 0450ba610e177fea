// `wsm imports list [--page] [--per-page] [--all]`
import { parsePageFlags, renderList } from '../shared/list.js';
import { verb, workspaceClient } from '../shared/verb.js';
import { importColumns } from './columns.js';

export const run = verb(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const client = await workspaceClient(ctx);
  await renderList(ctx, flags, { page: (q) => client.imports.list(q), pages: (q, s) => client.imports.pages(q, s) }, {}, { columns: importColumns, noun: 'imports' });
});
