// `wsm contacts export [--search q]`: every contact on stdout, written page by page (100 a page)
// so memory stays flat. CSV unless -o says otherwise; the columns are in export-format.ts.
import { str, verb, workspaceClient } from '../shared/verb.js';
import { EXPORT_COLUMNS, exportWriter } from './export-format.js';

export { EXPORT_COLUMNS } from './export-format.js';

export const run = verb(async (ctx, { opts }) => {
  const client = await workspaceClient(ctx);
  const search = str(opts.search);
  // Field names first: they are columns of the header, written before the first contact.
  const fieldNames: string[] = [];
  // A field named like a fixed column would make the header ambiguous; the fixed column wins.
  for await (const field of client.fields.iterate()) {
    if (!(EXPORT_COLUMNS as readonly string[]).includes(field.name)) fieldNames.push(field.name);
  }
  const writer = exportWriter(ctx.output.format, ctx.output.quiet, fieldNames, ctx.io.isStdoutTTY);
  ctx.io.out(writer.start());
  const progress = ctx.io.progress('Exporting contacts');
  let count = 0;
  // One write a page: a million small writes to stdout cost more than the rows themselves.
  for await (const page of client.contacts.pages(search === undefined ? {} : { search })) {
    ctx.io.out(writer.page(page.data));
    count += page.data.length;
    progress.update(count, page.meta.total);
  }
  progress.done();
  ctx.io.out(writer.end());
  ctx.output.message(`Exported ${count} contact${count === 1 ? '' : 's'}.`);
});
