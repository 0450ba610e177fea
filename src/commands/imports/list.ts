// `wsm imports list [--page] [--per-page] [--all]`
import { parsePageFlags, renderList } from '../shared/list.js';
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { list } from '../imports.js';
import { importColumns } from './columns.js';

export const run: VerbRun = typedRun<typeof list>(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const client = await workspaceClient(ctx);
  await renderList(ctx, flags, { page: (q) => client.imports.list(q), pages: (q, s) => client.imports.list(q).pages(s) }, {}, { columns: importColumns, noun: 'imports' });
});
