// `contacts delete --from <file|->` and `contacts update --from <file|->`: many contacts, one
// request each, on the page engine (several in flight, paced by 429s). One report line per item
// (id, outcome, status, message): every item with -o json/ndjson/csv, the failures only in the
// table. Exit 0 when every item succeeded (or --max-failures tolerates the failures); otherwise 8
// (done, but some items failed) with the summary `3 of 1,200 failed`, or, when every item failed
// for the same reason of the run's own (the token refused, the server out of reach), that
// failure's code. A delete answered 404 is "already gone", so an interrupted run can be repeated;
// a contact the run's read found missing is not sent (an update's fails, a delete's is already gone).
// An update without a name keeps the contact's own: from the plan's read of the workspace, or
// where there was none, read on its own (bulk-names.ts).
// As a verb (update-many.ts and delete-many.ts): parseBulk reads the flags; runBulk reads the
// file, the workspace once (an update's plan), asks, and starts the plan's execution
// (bulk-execute.ts, where each request is made and its outcome known); renderBulk prints each
// contact's report line as it ends, and settleBulk says what was done and decides the exit.
import type { ContactUpdateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { formatNoticeLines } from '../../cli/csv-check.js';
import { ExitCode, exitCodeFor } from '../../cli/errors.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { endWithFailures, parseMaxFailures, type FailureLimit } from '../shared/max-failures.js';
import type { BulkFlags } from '../contacts.js';
import type { FlagOptions } from '../declare.js';
import { readBytesInput, workspaceClient } from '../shared/verb.js';
import { fieldIdsOf } from '../shared/workspace-fields.js';
import { beginBulkChange } from '../../journal/bulk-change.js';
import { deleteUndoNote } from '../../journal/undo-reach.js';
import { executeBulk, reportColumns, type BulkExecution, type BulkReport, type BulkStep } from './bulk-execute.js';
import { fieldNamesOf, readBulkInput, refuseUnknownFields, resolveGroupNames } from './bulk-input.js';
import { namesFor } from './bulk-names.js';
import { checkSheetFlag, isSpreadsheetFile, rowNotesInPlan, sheetInput } from './bulk-sheet.js';
import { bulkPlan, updateSteps } from './bulk-plan.js';
import { mergeRepeated, refuseRepeated } from './bulk-merge.js';
import type { Plan } from './plan.js';
import { renderPlan } from './plan-render.js';
import { sayHeld } from '../imports/held-upload.js';
import { unkeptFieldsSentence } from './body.js';
import { countOf, countText } from '../../cli/text.js';
import { confirmPermitted } from '../shared/permission-first.js';
import { namedFlagGroups, refuseMissingGroups, workspaceGroups } from '../shared/group-flag.js';

export interface BulkOptions {
  kind: 'delete' | 'update';
  from: string;
  dryRun: boolean;
  /** Update only: the changes the flags give, under each row's own. */
  flags?: Partial<ContactUpdateBody>;
  concurrency: number;
  maxFailures?: FailureLimit;
  sheet?: string;
  /** --apply-flagged: changes that look made by a spreadsheet are sent too, not kept as stored. */
  applyFlagged: boolean;
  /** --strict: a file naming one contact on several rows is refused, nothing sent. */
  strict: boolean;
}

/** The flags of a `--from` run, checked in the order they always were (after the verb's own). */
export function parseBulk(
  ctx: Context,
  kind: BulkOptions['kind'],
  from: string,
  opts: FlagOptions<BulkFlags> & { applyFlagged?: true },
  flags?: Partial<ContactUpdateBody>,
): BulkOptions {
  const concurrency = concurrencyOf(ctx, opts);
  const maxFailures = parseMaxFailures(opts.maxFailures);
  checkSheetFlag(from, opts.sheet);
  return {
    kind,
    from,
    dryRun: opts.dryRun === true,
    ...(flags !== undefined ? { flags } : {}),
    concurrency,
    ...(maxFailures !== undefined ? { maxFailures } : {}),
    ...(opts.sheet !== undefined ? { sheet: opts.sheet } : {}),
    applyFlagged: opts.applyFlagged === true,
    strict: opts.strict === true,
  };
}

/** A real run once asked about: its execution started, the reports read by render, the tally by settle. */
interface BulkRun {
  kind: BulkOptions['kind'];
  /** `standard input` or the file's name. */
  source: string;
  /** The distinct contacts read from the source. */
  total: number;
  /** The plan's contacts and its cells left out because they look changed by a spreadsheet: said as an import says them. */
  held: Pick<Plan, 'contacts' | 'held'>;
  /** Contacts sent as their rows give them, their stored values not read. */
  unread: number;
  execution: BulkExecution;
}

/** --dry-run: the file against the live workspace, nothing sent; otherwise the run. */
export type BulkResult = { plan: Plan } | BulkRun;

export async function runBulk(ctx: Context, options: BulkOptions): Promise<BulkResult> {
  const { kind, concurrency } = options;
  const source = options.from === '-' ? 'standard input' : options.from;
  const update = kind === 'update' ? { flags: options.flags ?? {} } : undefined;
  const sheet = isSpreadsheetFile(options.from) ? await sheetInput(ctx, options.from, options.sheet) : undefined;
  const input = readBulkInput(sheet ?? (await readBytesInput(ctx, options.from)), source, update);
  for (const line of formatNoticeLines(source, input.notes)) ctx.output.notice(line);
  if (options.strict) refuseRepeated(input.items, source);
  // Rows naming one contact are one item: planned, sent and counted once.
  let items = mergeRepeated(input.items);
  const client = await workspaceClient(ctx);
  // Columns and --field values that are no contact attribute name custom fields: the workspace's, checked before anything is sent.
  const fieldNames = update === undefined ? [] : fieldNamesOf(input.columns, update.flags);
  if (fieldNames.length > 0) {
    const fields = await fieldIdsOf(ctx, client, true);
    if (fields !== undefined) refuseUnknownFields(fieldNames, fields, source);
  }
  const flagGroups = [update?.flags.contact_groups ?? []].flat().map(Number);
  const namesGroups = items.some((item) => item.groupNames !== undefined);
  if (namesGroups || flagGroups.length > 0) {
    // The file names groups (as `contacts export` writes them), --group gives ids: the API takes ids, the plan shows
    // names. The published API lists groups; names compared composed (NFC), as the file's are read.
    const groups = await workspaceGroups(client, namesGroups);
    if (groups !== undefined) {
      refuseMissingGroups(groups, flagGroups);
      const idsByName = new Map([...groups].map(([id, name]) => [name, id]));
      items = resolveGroupNames(namedFlagGroups(items, flagGroups, groups), idsByName, source);
    }
  }
  if (options.dryRun)
    return { plan: rowNotesInPlan((await bulkPlan(ctx, client, kind, items, concurrency, options.applyFlagged)).plan, sheet?.rowNotes) };
  if (kind === 'delete') {
    // How many were read, and from where: a list piped in without --all gives a page of them.
    const what = items.length === 1 ? `the 1 contact read from ${source}` : `all ${countText(items.length)} contacts read from ${source}`;
    await confirmPermitted(
      ctx,
      client,
      [{ resource: 'contacts', operation: 'delete' }],
      `Delete ${what}? ${deleteUndoNote('contacts', ctx, items.length !== 1)}`,
      `deleting ${what}`,
    );
  }
  // An update executes its plan, made as its dry run makes it; a delete sends every id its journal did not find gone.
  const planned = kind === 'update' ? await bulkPlan(ctx, client, kind, items, concurrency, options.applyFlagged) : undefined;
  const steps =
    planned !== undefined
      ? updateSteps(items, planned)
      : items.map((item): BulkStep => ({ id: Number(item.id), action: { kind: 'delete' } }));
  const names = planned === undefined ? undefined : await namesFor(ctx, client, steps, planned, concurrency);
  const journal = await beginBulkChange(ctx, client, `contacts ${kind} --from ${source}`, steps, concurrency);
  // A delete has no plan: the journal's read of the workspace tells which of its contacts are gone already.
  const sending = kind === 'delete' && journal !== undefined ? steps.map((step) => goneUnsent(step, journal.absent)) : steps;
  const progress = ctx.io.progress(kind === 'delete' ? 'Deleting contacts' : 'Updating contacts', steps.length);
  const execution = executeBulk(client, sending, { concurrency, progress, ...(names !== undefined ? { names } : {}) });
  const held = planned?.plan ?? { contacts: [], held: 0 };
  const unread = planned?.plan.not_read ?? 0;
  return { kind, source, total: steps.length, held, unread, execution: journal?.follow(execution) ?? execution };
}

/** A delete's step for a contact known not to be in the workspace: already gone, not sent. */
const goneUnsent = (step: BulkStep, absent: ReadonlySet<number>): BulkStep =>
  absent.has(step.id) ? { ...step, action: { kind: 'absent', outcome: 'already gone' } } : step;

/** The plan; or the run, its report lines printed as the items end: the table shows what needs attention, the machine formats every item. */
export async function renderBulk(ctx: Context, result: BulkResult): Promise<void> {
  if ('plan' in result) return renderPlan(ctx, result.plan);
  const { outcomes } = result.execution;
  const everything = ctx.output.format !== 'table' || ctx.output.quiet;
  async function* shown(): AsyncGenerator<BulkReport> {
    for await (const { report } of outcomes)
      if (ctx.output.quiet ? report.outcome !== 'failed' : everything || report.outcome === 'failed') yield report;
  }
  await ctx.output.list(shown(), { columns: reportColumns });
}

/**
 * The last line: what was done of how many distinct contacts read (an update: updated, unchanged,
 * skipped, failed, and how many of them were sent unread; a delete: deleted, already gone,
 * failed), the cells kept as stored, and the
 * exit: 8 for failed items beyond --max-failures.
 */
export function settleBulk(ctx: Context, result: BulkResult, options: BulkOptions): void {
  if ('plan' in result) return settlePlan(ctx, result.plan, options);
  const { kind, source, total } = result;
  const { tally } = result.execution;
  const { succeeded, gone, unchanged, skipped, failures } = tally;
  const read = total === 1 ? `the 1 contact read from ${source}` : `the ${countText(total)} contacts read from ${source}`;
  const counts =
    kind === 'delete'
      ? [`${countText(gone)} already gone`, `${countText(failures.length)} failed`]
      : [`${countText(unchanged)} unchanged`, `${countText(skipped)} skipped`, `${countText(failures.length)} failed`];
  // Contacts the plan could not read were sent as their rows give them: counted where they ended, and said.
  const notRead =
    result.unread > 0
      ? `; ${countText(result.unread)} of them sent as ${result.unread === 1 ? 'its row gives it' : 'their rows give them'}, not read first`
      : '';
  const done = `${kind === 'delete' ? 'deleted' : 'updated'} ${countText(succeeded - gone)} of ${read}: ${counts.join(', ')}${notRead}`;
  sayHeld(ctx, source, result.held);
  if (tally.unkeptFields.size > 0) ctx.output.warn(unkeptFieldsSentence([...tally.unkeptFields]));
  if (failures.length === 0) return ctx.output.done(done);
  const codes = new Set(failures.map((failure) => exitCodeFor(failure.error)));
  const [code] = codes;
  const runFailed = failures.length === total && codes.size === 1 && (code === ExitCode.auth || code === ExitCode.unavailable);
  // What was done is said before the failures are, tolerated or not (the last line counts only the
  // failures); a run that fails as a whole (every item for the run's own reason) says only that.
  const limit = options.maxFailures;
  if (!runFailed) ctx.output.done(done);
  endWithFailures(
    ctx,
    limit,
    failures.length,
    total,
    `${countText(failures.length)} of ${countText(total)} failed`,
    runFailed ? code : undefined,
  );
}

/**
 * A dry run ends as the import's does: exit 8 when the plan has invalid rows (an id the workspace
 * lacks, a value refused), unless --max-failures tolerates them. An id already gone from a
 * delete's plan is no failure.
 */
function settlePlan(ctx: Context, plan: Plan, options: BulkOptions): void {
  ctx.output.message('Dry run: nothing was sent.');
  const source = options.from === '-' ? 'standard input' : options.from;
  // Counted by contact, as the run counts its failures: rows naming one contact are one.
  const contacts = plan.contacts.length;
  const verb = plan.invalid === 1 ? 'is' : 'are';
  endWithFailures(
    ctx,
    options.maxFailures,
    plan.invalid,
    contacts,
    `${countText(plan.invalid)} of the ${countOf(contacts, 'contact')} in ${source} ${verb} invalid`,
  );
}
