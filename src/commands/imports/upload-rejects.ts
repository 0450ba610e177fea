// `--rejects FILE` after an upload: the rows that failed, in the input's own format.
import type { WsmClient } from '../../api/client.js';
import type { CsvReport } from '../../cli/csv-check.js';
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { countOf } from '../../cli/text.js';
import { isSpreadsheetFile } from '../contacts/bulk-sheet.js';
import { allImportErrors, onlyFirstKnown } from './import-errors.js';
import { type FailedLines, firstKnown, locallyFailed, serverFailed, writeCsvRejects } from './rejects.js';
import type { UploadFlags } from './upload-flags.js';

/**
 * The rows of a finished import that failed, from every error the server kept; where it keeps
 * only the first 100, those and the rows the local check found invalid, and said so.
 */
export async function rejectsAfterImport(
  ctx: Context,
  client: WsmClient,
  path: string,
  flags: UploadFlags,
  record: ContactImport,
  report: CsvReport | undefined,
): Promise<void> {
  const id = Number(record.id);
  const known = await allImportErrors(client, id, record);
  const sheet = flags.spreadsheet;
  // A sheet's rows are its CSV's records (one a sheet row): keyed by row, and its rows not sent added.
  const failed = serverFailed(known.errors, sheet === undefined ? 'line' : 'row');
  if (sheet !== undefined) for (const [row, message] of sheet.notSentRows) failed.set(row, message);
  if (!known.complete) {
    const holds = known.errors.length > 0 ? 'those and the rows' : 'the rows';
    ctx.output.warn(`${onlyFirstKnown(id, known.record)}: ${path} holds ${holds} the local check found invalid`);
  }
  // The server's reason for a row comes first; the check's fills the rows the server's first errors leave out.
  await writeRejects(ctx, path, flags, known.complete || report === undefined ? failed : firstKnown(failed, locallyFailed(report)));
}

/** The failed rows back in the input's format: CSV by line, or a workbook's sheet by row (sheet-rejects.ts). */
export async function writeRejects(ctx: Context, path: string, flags: UploadFlags, failed: FailedLines): Promise<void> {
  const file = flags.file;
  const rows = isSpreadsheetFile(file)
    ? await (await import('./sheet-rejects.js')).writeSheetRejects(path, file, flags.sheet, failed)
    : await writeCsvRejects(path, file, failed);
  if (rows === 0) ctx.output.notice(`no row of ${file} failed: ${path} holds its header only`);
  else
    ctx.output.notice(
      `wrote ${countOf(rows, 'row')} that failed to ${path}, with import_error and import_line: fix them there and import that file again`,
    );
}
