// Every error of an import: GET .../contact-imports/{id}/errors where the server has it (wsm
// serve), page after page; elsewhere only the first ones the import record holds, and said so.
// Shared by `wsm imports errors` and `--rejects`.
import type { WsmClient } from '../../api/client.js';
import { NotFoundError, UnsupportedEndpointError } from '../../api/errors.js';
import { isRouteMissing } from '../../api/resources/base.js';
import type { ContactImport, ImportError } from '../../api/schemas/index.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import type { Column } from '../../cli/columns.js';
import { countOf, countText } from '../../cli/text.js';
import { findImport } from './wait.js';

export interface ImportErrors {
  errors: ImportError[];
  /** False where the server keeps only the record's first errors. */
  complete: boolean;
  /** The import's record, where the errors were read from it. */
  record?: ContactImport;
}

export const importErrorColumns: Column<ImportError>[] = [
  { key: 'row', header: 'ROW' },
  { key: 'line', header: 'LINE' },
  { key: 'failed', header: 'FAILED', show: (e) => (e.failed ? 'yes' : 'no') },
  { key: 'message', header: 'MESSAGE' },
];

/**
 * An error as the published API writes it (`row`, `message`), read as ours: there `row` is the line it starts
 * on, and every error of a data row (past row 1) is a row that failed.
 */
export function importErrorOf(error: Partial<ImportError>): ImportError {
  const row = Number(error.row ?? 0);
  return {
    row,
    line: typeof error.line === 'number' ? error.line : row,
    message: String(error.message ?? ''),
    failed: typeof error.failed === 'boolean' ? error.failed : row > 1,
  };
}

export interface ImportErrorPages {
  /** The errors a page at a time, as they arrive. */
  pages: AsyncIterable<ImportError[]>;
  complete: boolean;
  record?: ContactImport;
}

async function* onePage(errors: ImportError[]): AsyncGenerator<ImportError[]> {
  yield errors;
}

async function* readPages(client: WsmClient, id: number, signal?: AbortSignal): AsyncGenerator<ImportError[]> {
  for await (const page of client.imports.errors(id).pages({ signal })) yield page.data.map(importErrorOf);
}

/**
 * The errors of import `id`, page after page where the server keeps them all (one asked for first,
 * so that a server without them is known before anything is printed); elsewhere the record's
 * first errors. `known`: the import's record, when in hand.
 */
export async function importErrorPages(
  client: WsmClient,
  id: number,
  known?: ContactImport,
  signal?: AbortSignal,
): Promise<ImportErrorPages> {
  try {
    await client.imports.errors(id, { per_page: 1 }, { signal });
    return { pages: readPages(client, id, signal), complete: true };
  } catch (error) {
    if (error instanceof NotFoundError && !isRouteMissing(error))
      throw new CliError(`no import ${id} in this workspace (\`wsm imports list\` shows the imports there are)`, ExitCode.notFound);
    if (!(error instanceof UnsupportedEndpointError)) throw error;
  }
  const record = known ?? (await findImport(client, id, signal));
  return { pages: onePage((Array.isArray(record.errors) ? record.errors : []).map(importErrorOf)), complete: false, record };
}

/** Every error of import `id`, held (--rejects needs them all to pick the rows). */
export async function allImportErrors(client: WsmClient, id: number, known?: ContactImport, signal?: AbortSignal): Promise<ImportErrors> {
  const { pages, complete, record } = await importErrorPages(client, id, known, signal);
  const errors: ImportError[] = [];
  for await (const page of pages) errors.push(...page);
  return { errors, complete, ...(record !== undefined ? { record } : {}) };
}

/** What is said where only the record's first errors are known. */
export function onlyFirstKnown(id: number, record: ContactImport | undefined): string {
  const kept = Array.isArray(record?.errors) ? record.errors.length : 0;
  const failed = typeof record?.failed_count === 'number' ? ` (${countOf(record.failed_count, 'failed row')} in all)` : '';
  if (kept === 0) return `this server does not list the errors of an import: none of import ${id} are known${failed}`;
  return `this server does not list every error of an import: only the first ${countText(kept)} of import ${id} are known${failed}`;
}
