// `wsm contacts export [--search q] [--concurrency n]`: CSV of every contact on stdout, written page
// by page in order (100 a page, several pages in flight: the page engine) so memory stays flat. The columns are fixed, then one per contact field, so a
// file exported here imports back (number, name, email, gender, status and field columns).
import type { ListPage } from '../../api/pagination.js';
import type { Contact } from '../../api/schemas/index.js';
import { cellText, csvField } from '../../cli/output.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { str, verb, workspaceClient } from '../shared/verb.js';

export const EXPORT_COLUMNS = ['id', 'number', 'name', 'email', 'gender', 'status', 'contact_groups', 'created_at', 'updated_at'] as const;

function line(cells: string[]): string {
  return cells.map(csvField).join(',') + '\n';
}

function row(contact: Contact, fieldNames: string[]): string[] {
  const fixed = EXPORT_COLUMNS.map((column) => {
    // Group ids joined with ";" keep the cell one value a spreadsheet will not split.
    if (column === 'contact_groups') return (contact.contact_groups ?? []).map((g) => g.id).join(';');
    return cellText(contact[column]);
  });
  return [...fixed, ...fieldNames.map((name) => contact.fields?.[name] ?? '')];
}

export const run = verb(async (ctx, { opts }) => {
  const client = await workspaceClient(ctx);
  const search = str(opts.search);
  const concurrency = concurrencyOf(ctx, opts);
  const progress = ctx.io.progress('Exporting contacts');
  const pages = client.contacts.pages(search === undefined ? {} : { search }, { concurrency, progress: (event) => progress.update(event.done) });
  // Page 1 is asked for now, so that it travels while the field names are read: one round trip
  // fewer against a distant server. Its rows are written after the header, like every page's.
  const first = pages.next();
  first.catch(() => undefined);
  let count = 0;
  // One write a page: a million small writes to stdout cost more than the rows themselves.
  const write = (page: ListPage<Contact>) => {
    ctx.io.out(page.data.map((contact) => line(row(contact, fieldNames))).join(''));
    count += page.data.length;
  };
  const fieldNames: string[] = [];
  try {
    // Field names first: they are columns of the header, written before the first contact.
    // A field named like a fixed column would make the header ambiguous; the fixed column wins.
    for await (const field of client.fields.iterate()) {
      if (!(EXPORT_COLUMNS as readonly string[]).includes(field.name)) fieldNames.push(field.name);
    }
    ctx.io.out(line([...EXPORT_COLUMNS, ...fieldNames]));
    const head = await first;
    if (!head.done) write(head.value);
    for await (const page of pages) write(page);
  } finally {
    progress.done();
    await pages.return(undefined); // stops the walk (and what it has in flight) if we left early
  }
  ctx.output.message(`Exported ${count} contact${count === 1 ? '' : 's'}.`);
});
