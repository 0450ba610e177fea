// `wsm contacts export [--search q] [--concurrency n]`: every contact on stdout, written page by
// page in order (100 a page, several pages in flight: the page engine) so memory stays flat.
// CSV unless -o says otherwise; the columns are in export-format.ts.
import type { ListPage } from '../../api/pagination.js';
import type { Contact } from '../../api/schemas/index.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { str, verb, workspaceClient } from '../shared/verb.js';
import { exportFieldNames, exportWriter } from './export-format.js';
import { countText } from '../../cli/text.js';

export { EXPORT_COLUMNS } from './export-format.js';

export const run = verb(async (ctx, { opts }) => {
  const client = await workspaceClient(ctx);
  const search = str(opts.search);
  const concurrency = concurrencyOf(ctx, opts);
  const progress = ctx.io.progress('Exporting contacts');
  const pages = client.contacts.pages(search === undefined ? {} : { search }, { concurrency, progress: (event) => progress.update(event.done, event.total) });
  // Page 1 is asked for now, so that it travels while the field names are read: one round trip
  // fewer against a distant server. Its rows are written after the header, like every page's.
  const first = pages.next();
  first.catch(() => undefined);
  let count = 0;
  let withLineBreaks = 0;
  try {
    // Field names first: they are columns of the header, written before the first contact.
    const writer = exportWriter(ctx.output.format, ctx.output.quiet, await exportFieldNames(client), ctx.io.isStdoutTTY);
    ctx.io.out(writer.start());
    // One write a page: a million small writes to stdout cost more than the rows themselves.
    const write = (page: ListPage<Contact>) => {
      ctx.io.out(writer.page(page.data));
      count += page.data.length;
    };
    const head = await first;
    if (!head.done) write(head.value);
    for await (const page of pages) write(page);
    ctx.io.out(writer.end());
    withLineBreaks = writer.withLineBreaks;
  } finally {
    progress.done();
    await pages.return(undefined); // stops the walk (and what it has in flight) if we left early
  }
  ctx.output.message(`Exported ${countText(count)} contact${count === 1 ? '' : 's'}.`);
  if (withLineBreaks > 0) {
    // The file stays valid CSV for spreadsheets; the import reads every line end as a row's end (decisions.md §7).
    const one = withLineBreaks === 1;
    ctx.output.warn(
      `${one ? '1 contact has' : `${withLineBreaks} contacts have`} a line break in a value: the CSV keeps it, but \`wsm contacts import\` ends a row at every line end, so it will report ${one ? "that contact's lines" : "those contacts' lines"} instead of importing ${one ? 'it' : 'them'}`,
    );
  }
});
