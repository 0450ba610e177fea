// `wsm imports list [--page] [--per-page] [--all]`
import { parsePageFlags, renderList } from '../shared/list.js';
import { verb, workspaceClient } from '../shared/verb.js';
import { importColumns } from './columns.js';

export const run = verb(async (ctx, { opts }) => {
  const flags = parsePageFlags(opts);
  const client = await workspaceClient(ctx);
  await renderList(ctx, flags, { page: (q) => client.imports.list(q), all: (q) => client.imports.iterate(q) }, {}, { columns: importColumns, noun: 'imports' });
});
