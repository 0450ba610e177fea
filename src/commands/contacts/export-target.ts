// Where `wsm contacts export` writes, and as what: standard output or `--output-file` (replaced
// whole once the export is done), CSV/JSON text or an .xlsx workbook (src/formats/xlsx: streamed).
// An .xlsx is never written to a terminal: the command that writes a file is suggested instead,
// before anything is sent.
import { hostFile } from '../../cli/host-files.js';
import type { Contact } from '../../api/schemas/index.js';
import { type Column, valueOf } from '../../cli/columns.js';
import { createOutput, type Output } from '../../cli/output.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { openFileSink, type FileSink } from '../../cli/file-sink.js';
import type { IOStreams } from '../../cli/io.js';
import { cellText } from '../../cli/text.js';
import type { ByteSink } from '../../formats/xlsx/zip-writer.js';

export interface ExportTarget {
  /** The header of these columns, then each page's rows as the pages arrive; resolves once the last is written. */
  write(columns: Column<Contact>[], pages: AsyncIterable<Contact[]>): Promise<void>;
  /** The export is complete: the file (if any) takes its place. */
  finish(): void;
  /** The export stopped: the file (if any) is left as it was. */
  abandon(): void;
}

const isXlsxName = (path: string) => /\.xlsx$/i.test(path);

/** Decides the format and the destination from -o and --output-file; refuses what cannot work before any request. */
export function exportTarget(ctx: Context, outputFile: string | undefined): ExportTarget {
  // `-` is standard output, as `--from -` reads standard input: never a file named "-".
  if (outputFile === '-') return exportTarget(ctx, undefined);
  const format = ctx.output.format;
  if (outputFile !== undefined && isXlsxName(outputFile) && format !== 'xlsx' && format !== 'table') {
    throw new UsageError(
      `-o ${format} writes ${format === 'csv' ? 'CSV' : 'JSON'}, not a workbook: name the file .${format === 'ndjson' ? 'ndjson' : format}, or write it with -o xlsx`,
    );
  }
  const text = outputFile === undefined ? undefined : /\.(csv|tsv|txt|json|ndjson)$/i.exec(outputFile)?.[1];
  if (format === 'xlsx' && text !== undefined)
    throw new UsageError(`-o xlsx writes a workbook, not ${text.toUpperCase()}: name the file .xlsx, or write it with -o csv`);
  // CSV under a JSON name, or JSON under a CSV name, would be read as what its name says.
  const named = text === undefined ? undefined : text.toLowerCase() === 'csv' ? 'csv' : /^(nd)?json$/i.test(text) ? 'json' : undefined;
  const written = format === 'csv' ? 'csv' : format === 'json' || format === 'ndjson' ? 'json' : undefined;
  if (named !== undefined && written !== undefined && named !== written)
    throw new UsageError(
      `-o ${format} writes ${written === 'csv' ? 'CSV' : 'JSON'}, not ${named === 'csv' ? 'CSV' : 'JSON'}: name the file .${format}, or write it with -o ${named}`,
    );
  const xlsx = format === 'xlsx' || (format === 'table' && outputFile !== undefined && isXlsxName(outputFile));
  if (xlsx && outputFile === undefined && ctx.io.isStdoutTTY) {
    throw new UsageError(
      'an .xlsx workbook is not written to a terminal: write it to a file with `wsm contacts export -o xlsx --output-file contacts.xlsx` (or `> contacts.xlsx`)',
    );
  }
  if (outputFile === undefined) {
    return { write: writer(xlsx, ctx.output, { write: (bytes) => ctx.io.outBytes(bytes) }), finish: () => {}, abandon: () => {} };
  }
  const file = openFileSink(hostFile(ctx, outputFile));
  const output = xlsx
    ? ctx.output
    : createOutput(fileIO(ctx.io, file), { format: format === 'table' ? 'csv' : format, quiet: ctx.output.quiet });
  return {
    write: writer(xlsx, output, { write: async (bytes) => file.write(bytes) }),
    finish: () => file.commit(),
    abandon: () => file.abort(),
  };
}

/** Text through `output` (CSV whatever -o table says), or a workbook's bytes to `bytes`. */
function writer(xlsx: boolean, output: Output, bytes: ByteSink): ExportTarget['write'] {
  if (!xlsx) return async (columns, pages) => void (await output.pages(pages, { columns, csvWithoutFormat: true }));
  return async (columns, pages) => {
    const { writeXlsx } = await import('../../formats/xlsx/sheet-writer.js');
    const rows = pages[Symbol.asyncIterator]();
    // The first page sizes the columns: the widths come before the sheet's rows in the file.
    const first = await rows.next();
    const sample = first.done ? [] : first.value.map((contact) => xlsxCells(contact, columns));
    async function* cells(): AsyncGenerator<string[][]> {
      if (first.done) return;
      yield sample;
      for await (const page of { [Symbol.asyncIterator]: () => rows }) yield page.map((contact) => xlsxCells(contact, columns));
    }
    await writeXlsx(bytes, { sheetName: 'Contacts', header: columns.map((c) => c.key), rows: cells(), sample });
  };
}

/** The streams of `io` with stdout going to `file` (no terminal: no colour, no widths). */
function fileIO(io: IOStreams, file: FileSink): IOStreams {
  let wrote = false;
  return Object.create(io, {
    out: { value: (text: string) => ((wrote ||= text !== ''), file.write(text)) },
    outBytes: { value: async (bytes: Uint8Array) => ((wrote ||= bytes.length > 0), file.write(bytes)) },
    wroteStdout: { get: () => wrote },
    isStdoutTTY: { value: false },
    columns: { value: undefined },
    colorEnabled: { value: false },
  }) as IOStreams;
}

/** A contact's cells as the CSV export writes them, without CSV's quoting and formula guard (a text cell is never a formula). */
function xlsxCells<T>(row: T, columns: readonly Column<T>[]): string[] {
  return columns.map((column) => cellText(valueOf(row, column)));
}
