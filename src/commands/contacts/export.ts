// `wsm contacts export [--search q] [--concurrency n]`: every contact on stdout, written page by
// page in order (100 a page, several pages in flight: the page engine) so memory stays flat.
// CSV unless -o says otherwise; the columns are in export-format.ts. Stopped part way (Ctrl-C,
// a page that fails), it says on stderr how many contacts were written and that the output is
// incomplete (exit 130, or the failure's code), so a partial file is never taken for a whole one.
// `-o xlsx` writes the same header and rows as a workbook (export-target.ts: where it goes;
// src/cli/xlsx: the file, streamed); `--output-file` replaces its file only once the export is whole.
import type { Contact } from '../../api/schemas/index.js';
import { PartialOutputError } from '../../cli/errors.js';
import { untilInterrupted } from '../../cli/interrupt.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { exportAll } from '../contacts.js';
import { exportColumns, exportFieldNames } from './export-format.js';
import { countText } from '../../cli/text.js';
import { exportTarget, xlsxCells } from './export-target.js';

export { EXPORT_COLUMNS } from './export-format.js';

const written = (count: number) =>
  `${count === 1 ? '1 contact was' : `${countText(count)} contacts were`} written: the output is incomplete`;

export const run: VerbRun = typedRun<typeof exportAll>(async (ctx, { opts }) => {
  const client = await workspaceClient(ctx);
  const { search } = opts;
  const concurrency = concurrencyOf(ctx, opts);
  const target = exportTarget(ctx, opts.outputFile);
  let count = 0;
  let started = false;
  await untilInterrupted(
    ctx,
    async (signal) => {
      const progress = ctx.io.progress('Exporting contacts');
      const pages = client.contacts
        .list(search === undefined ? {} : { search })
        .pages({ concurrency, signal, progress: (event) => progress.update(event.done, event.total) });
      // Page 1 is asked for now, so that it travels while the field names are read: one round trip
      // fewer against a distant server. Its rows are written after the header, like every page's.
      const first = pages.next();
      first.catch(() => undefined);
      /** The pages' rows, counted once written (Output asks for the next page after writing one). */
      async function* countedPages(): AsyncGenerator<Contact[]> {
        const head = await first;
        if (head.done) return;
        yield head.value.data;
        count += head.value.data.length;
        for await (const page of pages) {
          yield page.data;
          count += page.data.length;
        }
      }
      try {
        // Field names first: they are columns of the header, written before the first contact.
        const columns = exportColumns(await exportFieldNames(client));
        started = true;
        if (target.xlsx) {
          const { writeXlsx } = await import('../../cli/xlsx/sheet-writer.js');
          const rows = countedPages();
          // The first page sizes the columns: the widths come before the sheet's rows in the file.
          const first = await rows.next();
          const sample = first.done ? [] : first.value.map((contact) => xlsxCells(contact, columns));
          async function* cells(): AsyncGenerator<string[][]> {
            if (first.done) return;
            yield sample;
            for await (const page of rows) yield page.map((contact) => xlsxCells(contact, columns));
          }
          await writeXlsx(target.bytes, { sheetName: 'Contacts', header: columns.map((c) => c.key), rows: cells(), sample });
        } else {
          await target.output.pages(countedPages(), { columns, csvWithoutFormat: true });
        }
        target.finish();
      } catch (error) {
        target.abandon();
        if (started && !signal.aborted) throw new PartialOutputError(error, written(count));
        throw error;
      } finally {
        progress.done();
        await pages.return(undefined); // stops the walk (and what it has in flight) if we left early
      }
    },
    () => `the export stopped; ${written(count)}`,
  );
  ctx.output.message(`Exported ${countText(count)} contact${count === 1 ? '' : 's'}.`);
});
