// `wsm contacts export [--search q] [--concurrency n]`: every contact on stdout, written page by
// page in order (100 a page, several pages in flight: the page engine) so memory stays flat.
// CSV unless -o says otherwise; the columns are in export-format.ts. Stopped part way (Ctrl-C,
// a page that fails), it says on stderr how many contacts were written and that the output is
// incomplete (exit 130, or the failure's code), so a partial file is never taken for a whole one.
// `-o xlsx` writes the same header and rows as a workbook (export-target.ts: where it goes and
// as what); `--output-file` replaces its file only once the export is whole.
// As a verb: run reads the contacts and returns how many it wrote; the rows go out through the
// target `live` gives it as each page arrives, too many to hold and return.
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { PartialOutputError } from '../../cli/errors.js';
import { untilInterrupted } from '../../cli/interrupt.js';
import type { EXPORT_FLAGS } from '../contacts.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { workspaceClient } from '../shared/verb.js';
import { exportColumns, exportFieldNames } from './export-format.js';
import { countOf, countText } from '../../cli/text.js';
import { exportTarget, type ExportTarget } from './export-target.js';

export { EXPORT_COLUMNS } from './export-format.js';

/** The flags as given: --concurrency and the target are checked by run, after the settings, as they always were. */
export type ExportOptions = FlagOptions<typeof EXPORT_FLAGS>;

/** Opens where the rows go (stdout, or --output-file's file, as -o says), once the workspace is known. */
export type ExportSink = () => ExportTarget;

/** What an export did: the contacts written, the whole of them. */
export interface Exported {
  count: number;
}

const written = (count: number) =>
  `${count === 1 ? '1 contact was' : `${countText(count)} contacts were`} written: the output is incomplete`;

export function parse({ opts }: CommandLine<typeof EXPORT_FLAGS>): ExportOptions {
  return opts;
}

export async function run(ctx: Context, options: ExportOptions, open: ExportSink): Promise<Exported> {
  const client = await workspaceClient(ctx);
  const { search } = options;
  const concurrency = concurrencyOf(ctx, options);
  const target = open();
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
      /** The pages' rows, counted once written (the target asks for the next page after writing one). */
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
        const columns = exportColumns(await exportFieldNames(client, (text) => ctx.output.warn(text)));
        started = true;
        await target.write(columns, countedPages());
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
  return { count };
}

/** The rows go where -o and --output-file say, as run reads them. */
export function live(ctx: Context, options: ExportOptions): ExportSink {
  return () => exportTarget(ctx, options.outputFile);
}

/** The contacts are out already: what is left to say is how many (on stderr). */
export function render(ctx: Context, { count }: Exported): void {
  ctx.output.message(`Exported ${countOf(count, 'contact')}.`);
}
