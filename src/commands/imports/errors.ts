// `wsm imports errors <id>`: every error of an import, every page (-o csv|json for a script);
// on a server that keeps only the first 100 (the import record's), those, with a warning.
import { parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { errors } from '../imports.js';
import { importErrorColumns, importErrorPages, onlyFirstKnown } from './import-errors.js';

export const run: VerbRun = typedRun<typeof errors>(async (ctx, { args }) => {
  const id = parseId(args[0], 'import id');
  const client = await workspaceClient(ctx);
  const known = await importErrorPages(client, id);
  if (!known.complete) ctx.output.warn(onlyFirstKnown(id, known.record));
  // Written a page at a time: an import of a million bad rows is never held whole.
  await ctx.output.pages(known.pages, { columns: importErrorColumns, idKey: 'row' });
});
