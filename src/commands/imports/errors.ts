// `wsm imports errors <id>`: every error of an import, every page (-o csv|json for a script);
// on a server that keeps only the first 100 (the import record's), those, with a warning.
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { parseId, workspaceClient } from '../shared/verb.js';
import { importErrorColumns, importErrorPages, onlyFirstKnown, type ImportErrorPages } from './import-errors.js';

export function parse({ args }: CommandLine): number {
  return parseId(args[0], 'import id');
}

/** The errors' pages, read as they are written; a warning first where the server keeps only some. */
export async function run(ctx: Context, id: number): Promise<ImportErrorPages['pages']> {
  const client = await workspaceClient(ctx);
  const known = await importErrorPages(client, id);
  if (!known.complete) ctx.output.warn(onlyFirstKnown(id, known.record));
  return known.pages;
}

export async function render(ctx: Context, pages: ImportErrorPages['pages']): Promise<void> {
  // Written a page at a time: an import of a million bad rows is never held whole.
  await ctx.output.pages(pages, { columns: importErrorColumns, idKey: 'row' });
}
