// The upload flow behind `wsm contacts import` and `wsm imports create`: check the CSV's header
// locally, send it, report its bad rows (checked first under --strict and --dry-run), and
// optionally wait for the server to finish processing it.
import { basename } from 'node:path';
import type { WsmClient } from '../../api/client.js';
import { UnusableResponseError } from '../../api/errors.js';
import type { ContactImport } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { checkImportCsv, checkImportHeader, type CsvReport } from '../../cli/csv-check.js';
import { CliError, ExitCode, LocalValidationError } from '../../cli/errors.js';
import type { Column } from '../../cli/output.js';
import { parseDuration, parseId, sleep, str, workspaceClient } from '../shared/verb.js';
import { importDetailColumns } from './columns.js';

export interface UploadFlags {
  file: string;
  name?: string;
  group?: number;
  dryRun: boolean;
  strict: boolean;
  wait: boolean;
  intervalMs: number;
  timeoutMs: number;
}

export function parseUploadFlags(file: string, opts: Record<string, unknown>): UploadFlags {
  const flags: UploadFlags = {
    file,
    dryRun: opts.dryRun === true,
    strict: opts.strict === true,
    wait: opts.wait === true,
    intervalMs: parseDuration(opts.interval ?? '1s', '--interval'),
    timeoutMs: parseDuration(opts.timeout ?? '30m', '--timeout'),
  };
  const name = str(opts.name);
  if (name !== undefined) flags.name = name;
  if (opts.group !== undefined) flags.group = parseId(opts.group, '--group');
  return flags;
}

const problemKey = (line: number, field: string) => `line ${line} ${field}`;

const reportColumns: Column<CsvReport>[] = [
  { key: 'file', header: 'File' },
  { key: 'columns', header: 'Columns', get: (r) => r.columns.join(', ') },
  { key: 'rows', header: 'Rows' },
  { key: 'valid_rows', header: 'Valid' },
  { key: 'invalid_rows', header: 'Invalid' },
];

export async function uploadImport(ctx: Context, flags: UploadFlags): Promise<void> {
  // What stops an import is known from the header: decided before anything is sent.
  await checkImportHeader(flags.file);

  // --strict and --dry-run decide on the row check's verdict, so it comes first. Otherwise
  // the file is sent whatever its rows hold (the server skips bad ones), so the rows are
  // checked after the upload, while the server works through the file: for a million rows
  // the check takes seconds that would otherwise be added to the import. (Checking during
  // the upload was tried: both share this process's one thread, and the upload took 7x longer.)
  let report: CsvReport | undefined;
  if (flags.strict || flags.dryRun) {
    report = await checkImportCsv(flags.file);
    refuseOrWarn(ctx, flags, report);
    if (flags.dryRun) {
      // The report is the command's data: -o json gives every problem with its line.
      if (ctx.output.format === 'json' || ctx.output.format === 'ndjson') await ctx.output.record(report);
      else await ctx.output.record(report, { columns: reportColumns, idKey: 'file' });
      ctx.output.message(`Dry run: nothing was sent. ${report.invalid_rows > 0 ? 'The server would skip the invalid rows.' : ''}`.trim());
      return;
    }
  }

  const client = await workspaceClient(ctx);
  const answer = await client.imports.create({
    name: flags.name ?? basename(flags.file),
    ...(flags.group !== undefined ? { contact_groups: flags.group } : {}),
    filePath: flags.file,
  });
  const id = answer.data?.id;
  if (id === undefined || id === null) ctx.output.warn(`${flags.file} was uploaded, but the server's answer holds no import id`);
  else ctx.output.message(`Uploaded ${flags.file} as import ${id}.`);
  if (report === undefined) {
    try {
      report = await checkImportCsv(flags.file);
      refuseOrWarn(ctx, flags, report);
    } catch (error) {
      // The import exists on the server: say why the rows went unchecked, and go on to report it.
      ctx.output.warn(`the rows of ${flags.file} were not checked after sending: ${(error as Error).message}`);
    }
  }
  if (report && report.invalid_rows > 0) {
    ctx.output.warn(`sent anyway: the server skips the ${report.invalid_rows} invalid rows (use --strict to refuse the file)`);
  }
  if (!flags.wait || answer.data === undefined || id === undefined || id === null) {
    if (flags.wait) {
      throw new UnusableResponseError(`${flags.file} was uploaded, but the server's answer has no import \`id\` to wait for: do not upload it again (\`wsm imports list\` shows it)`);
    }
    if (answer.data !== undefined) await ctx.output.record(answer.data, { columns: importDetailColumns });
    else if (ctx.output.format === 'json' || ctx.output.format === 'ndjson') ctx.io.out(JSON.stringify(answer.body ?? null) + '\n');
    return;
  }
  const final = await waitForImport(ctx, client, answer.data, flags);
  await ctx.output.record(final, { columns: importDetailColumns });
  reportOutcome(ctx, final);
}

/** --strict: any bad row is exit 2 with each problem listed. Otherwise each problem is a warning. */
function refuseOrWarn(ctx: Context, flags: UploadFlags, report: CsvReport): void {
  const hidden = report.invalid_rows - new Set(report.problems.map((p) => p.line)).size;
  if (flags.strict && report.invalid_rows > 0) {
    const errors: Record<string, string[]> = {};
    for (const p of report.problems) (errors[problemKey(p.line, p.field)] ??= []).push(p.message);
    if (hidden > 0) errors['more'] = [`${hidden} more invalid rows not listed`];
    throw new LocalValidationError(`${report.invalid_rows} of ${report.rows} rows in ${flags.file} are invalid (--strict): nothing was sent`, errors);
  }
  for (const p of report.problems) ctx.output.warn(`${flags.file} line ${p.line}: ${p.field}: ${p.message}`);
  if (hidden > 0) ctx.output.warn(`${hidden} more invalid rows not listed`);
}

// api.md does not show how an import progresses: these are the words servers use for "done".
const FAILED = new Set(['failed', 'error', 'errored']);
const FINISHED = new Set(['completed', 'complete', 'finished', 'done', 'succeeded', 'success', 'processed', ...FAILED]);

function statusOf(record: ContactImport): string | undefined {
  const status = record.status as unknown;
  return typeof status === 'string' ? status.toLowerCase() : undefined;
}

/**
 * Polls the import until it is finished: GET one import where the server has it, else the import
 * list (api.md's own operation). The file was sent once, before this; nothing here sends it again.
 */
async function waitForImport(ctx: Context, client: WsmClient, first: ContactImport, flags: UploadFlags): Promise<ContactImport> {
  const deadline = Date.now() + flags.timeoutMs;
  let current = first;
  const total = typeof first.total_rows === 'number' && first.total_rows > 0 ? first.total_rows : undefined;
  const progress = ctx.io.progress(`Importing ${first.name ?? flags.file}`, total);
  try {
    for (;;) {
      const status = statusOf(current);
      if (status === undefined) {
        throw new UnusableResponseError(
          `the server's record of import ${first.id} has no \`status\` field, so wsm cannot tell when it is finished: it was uploaded once, do not upload it again`,
        );
      }
      if (FINISHED.has(status)) return current;
      if (Date.now() >= deadline) {
        throw new CliError(`import ${first.id} still ${status} after ${flags.timeoutMs / 1000}s: it goes on on the server (\`wsm imports list\`)`, ExitCode.unavailable);
      }
      await sleep(flags.intervalMs);
      const found = await client.imports.find(first.id);
      if (found === undefined) {
        throw new CliError(`import ${first.id} is no longer listed by the server: it was uploaded once; \`wsm imports list\` shows the imports it has`, ExitCode.failure);
      }
      current = found;
      if (typeof current.processed_rows === 'number') progress.update(current.processed_rows);
    }
  } finally {
    progress.done();
  }
}

function reportOutcome(ctx: Context, result: ContactImport): void {
  if (FAILED.has(statusOf(result) ?? '')) {
    const reason = Array.isArray(result.errors) ? result.errors[0]?.message : undefined;
    throw new CliError(`import ${result.id} failed${reason ? `: ${reason}` : ''}`, ExitCode.failure);
  }
  if (typeof result.failed_count === 'number' && result.failed_count > 0) ctx.output.warn(`${result.failed_count} rows were skipped by the server (see the errors field)`);
  // Only the counters the server sent: api.md shows none.
  const counts = (['created', 'updated', 'failed'] as const)
    .map((kind) => [kind, result[`${kind}_count`]] as const)
    .filter(([, value]) => typeof value === 'number')
    .map(([kind, value]) => `${value} ${kind}`);
  ctx.output.message(`Import ${result.id} completed${counts.length > 0 ? `: ${counts.join(', ')}` : ''}.`);
}
