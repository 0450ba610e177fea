// `wsm undo <change> [--dry-run] [--force]`: the inverse of a journaled change against the live
// workspace, shown as a plan (as `--dry-run` of a bulk verb shows one), then asked about on a
// terminal (--yes otherwise) and sent. Contacts changed again since are flagged and left alone
// unless --force. The undo is journaled itself. Exit 0, or 8 when some of its requests failed.
import type { Column } from '../../cli/columns.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { countOf, countText } from '../../cli/text.js';
import { inverseOf, type UndoStep } from '../../journal/inverse.js';
import { fitToLiveGroups, noteFitted } from '../../journal/gone-groups.js';
import { groupsMadeAgain } from '../../journal/remade-groups.js';
import { openJournal, withoutUrlPassword } from '../../journal/journal.js';
import { contactsForUndo } from '../../journal/undo-contacts.js';
import type { ChangeMeta, JournalRecord } from '../../journal/records.js';
import { type NotUndone, resourceInverse } from '../../journal/resource-inverse.js';
import { readLiveResources } from '../../journal/resource-read.js';
import type { WsmClient } from '../../api/client.js';
import { sendUndo, type UndoReport } from '../../journal/undo-steps.js';
import { keepingReplacements } from '../../journal/undo-order.js';
import { liveContacts, type Plan } from '../contacts/plan.js';
import { renderPlan } from '../contacts/plan-render.js';
import type { CommandLine } from '../declare.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { confirmPermitted, type AskedChange } from '../shared/permission-first.js';
import { endWithFailures, parseMaxFailures, type FailureLimit } from '../shared/max-failures.js';
import { workspaceClient } from '../shared/verb.js';
import type { UNDO_FLAGS } from '../undo.js';
import { findSettledChange } from '../history/change-ref.js';

export interface UndoOptions {
  ref: string;
  dryRun: boolean;
  force: boolean;
  concurrency: number;
  maxFailures?: FailureLimit;
}

export interface UndoResult {
  change: ChangeMeta;
  plan: Plan;
  /** Requests the undo makes (or would make). */
  steps: number;
  /** Records the undo cannot take back: the API has nothing to invert with, or nothing was kept to. */
  cannot: number;
  /** Of those, the groups an import made that stay, each in a sentence (`contact group "VIP" stays: ...`). */
  stays?: string[];
  /** The groups the change deleted that this undo does not make again, which its contacts come back without, each in a sentence. */
  without?: string[];
  /** Undefined for a dry run or an undo with nothing to send. */
  reports?: UndoReport[];
}

/** What a person watches: the plan, before the question. */
export interface UndoLive {
  planned(plan: Plan): Promise<void>;
}

export function parse({ args, opts }: CommandLine<typeof UNDO_FLAGS>, ctx: Context): UndoOptions {
  const maxFailures = parseMaxFailures(opts.maxFailures);
  return {
    ref: args[0],
    dryRun: opts.dryRun === true,
    force: opts.force === true,
    concurrency: concurrencyOf(ctx, opts),
    ...(maxFailures !== undefined ? { maxFailures } : {}),
  };
}

/** The undo goes where the change went: the same server and workspace (a URL's password is not kept, so not compared). */
async function checkTarget(ctx: Context, change: ChangeMeta): Promise<void> {
  const settings = await ctx.settings();
  const target = settings.baseUrl === undefined ? undefined : withoutUrlPassword(settings.baseUrl);
  if (target === withoutUrlPassword(change.base_url) && settings.workspace === change.workspace) return;
  // The profile named in the change may never have been saved (a CI job's WSM_BASE_URL), or point elsewhere by now.
  const saved = (await ctx.config()).getProfile(change.profile);
  const savedThere =
    saved?.base_url !== undefined &&
    withoutUrlPassword(saved.base_url) === withoutUrlPassword(change.base_url) &&
    saved.workspace === change.workspace;
  const fix = savedThere
    ? `pass --profile ${change.profile}`
    : `set WSM_BASE_URL=${change.base_url} and WSM_WORKSPACE=${change.workspace} (with a token for them)`;
  throw new UsageError(
    `change ${change.id} was made on ${change.base_url}, workspace ${change.workspace} (profile ${change.profile}); this command targets ${target ?? 'no server'}, workspace ${settings.workspace ?? 'none'}: ${fix}`,
  );
}

/** The operation a step makes, for the permission check before the question. */
const askedOf = (step: UndoStep): AskedChange =>
  step.op !== 'resource'
    ? { resource: 'contacts', operation: step.op }
    : { resource: step.resource, operation: step.resource === 'permissions' ? 'setPartnerDefaults' : step.does };

/** The plan of the undo: contacts read only where the change holds some, each other record read by itself. */
async function planOf(ctx: Context, client: WsmClient, change: ChangeMeta, records: JournalRecord[], options: UndoOptions) {
  const contacts = records.some((record) => record.kind === 'contact')
    ? await contactsForUndo(ctx, client, records, options.concurrency)
    : liveContacts([]);
  const others = records.filter((record) => record.kind === 'resource');
  const cannot: NotUndone = { count: 0 };
  const live = await readLiveResources(client, others);
  // Plans a record without counting it in `cannot`, to learn what its undo would send.
  const probe = resourceInverse(live, options.force, { count: 0 });
  // Which groups this undo makes again decides what its contacts can be planned in (remade-groups.ts).
  const remade = groupsMadeAgain(records, probe);
  const fitted = await fitToLiveGroups(client, records, remade);
  const resources = keepingReplacements(records, resourceInverse(live, options.force, cannot, fitted.regrouped), probe, cannot);
  const inverse = inverseOf(fitted.records, new Set(change.failed ?? []), contacts, options.force, resources);
  noteFitted(inverse.plan, fitted.notes);
  return {
    ...inverse,
    cannot: cannot.count,
    ...(cannot.stays !== undefined ? { stays: cannot.stays } : {}),
    ...(fitted.without.length > 0 ? { without: fitted.without } : {}),
  };
}

export async function run(ctx: Context, options: UndoOptions, live?: UndoLive): Promise<UndoResult> {
  const store = await openJournal(ctx);
  const change = findSettledChange(store, options.ref);
  const { records } = store.read(change);
  await checkTarget(ctx, change);
  const client = await workspaceClient(ctx);
  const { plan, steps, cannot, stays, without } = await planOf(ctx, client, change, records, options);
  await live?.planned(plan);
  const result: UndoResult = {
    change,
    plan,
    steps: steps.length,
    cannot,
    ...(stays !== undefined ? { stays } : {}),
    ...(without !== undefined ? { without } : {}),
  };
  if (options.dryRun || steps.length === 0) return result;
  const what = `${countOf(steps.length, 'request')} undoing change ${change.id} (${change.summary})`;
  await confirmPermitted(ctx, client, steps.map(askedOf), `Send the ${what}?`, `sending the ${what}`);
  return { ...result, reports: await sendUndo(ctx, client, change.id, steps, options.concurrency) };
}

export function live(ctx: Context): UndoLive | undefined {
  if (ctx.output.structured || ctx.output.selecting) return undefined;
  return { planned: (plan) => renderPlan(ctx, plan) };
}

const reportColumns: Column<UndoReport>[] = [
  { key: 'id', header: 'ID' },
  { key: 'outcome', header: 'OUTCOME' },
  { key: 'status', header: 'STATUS' },
  { key: 'message', header: 'MESSAGE' },
];

export async function render(ctx: Context, result: UndoResult): Promise<void> {
  if (ctx.output.structured || ctx.output.selecting) {
    await ctx.output.record({ change: result.change.id, plan: result.plan, ...(result.reports ? { results: result.reports } : {}) });
    return;
  }
  if (result.reports !== undefined) await ctx.output.list(result.reports, { columns: reportColumns });
}

/**
 * Exit 0 when the undo did all it planned; 8 (as the bulk verbs with failures, --max-failures
 * tolerating some) when requests failed or records cannot be undone at all. A dry run exits 0.
 */
export function settle(ctx: Context, result: UndoResult, options: UndoOptions): void {
  const { reports, plan, cannot } = result;
  const noun = plan.contacts.some((entry) => entry.label !== undefined) ? 'record' : 'contact';
  const left =
    plan.skipped > 0
      ? `; ${countOf(plan.skipped, noun)} changed since or not restorable, left as ${plan.skipped === 1 ? 'it is' : 'they are'} (marked !)`
      : '';
  const lost =
    cannot > 0 ? `${countOf(cannot, 'record')} of change ${result.change.id} cannot be undone in full (see the plan's notes)` : '';
  // What the change could not keep at the time (an import's contacts not known, no before-image) is
  // left by this undo whatever its plan shows: "nothing to undo" alone would read as all taken back.
  for (const note of result.change.notes) ctx.output.warn(`change ${result.change.id}: ${note}`);
  // Said beside the result too: a group left behind is easily missed among a plan's contacts.
  for (const sentence of [...(result.stays ?? []), ...(result.without ?? [])]) ctx.output.warn(sentence);
  if (reports === undefined) {
    if (options.dryRun) ctx.output.message('Dry run: nothing was sent.');
    else if (cannot === 0) ctx.output.done(`nothing to undo of change ${result.change.id}${left}`);
    else {
      ctx.output.notice(`nothing undone of change ${result.change.id}${left}`);
      endWithFailures(ctx, options.maxFailures, cannot, cannot, lost);
    }
    return;
  }
  const count = (outcome: UndoReport['outcome']) => reports.filter((report) => report.outcome === outcome).length;
  const failed = count('failed');
  const done = `undid change ${result.change.id}: ${countText(count('set back'))} set back, ${countText(count('deleted'))} deleted, ${countText(count('created again'))} created again, ${countText(failed)} failed${left}`;
  if (failed === 0 && cannot === 0) return ctx.output.done(done);
  ctx.output.notice(done);
  const why = [
    ...(failed > 0 ? [`${countText(failed)} of ${countOf(reports.length, 'request')} failed`] : []),
    ...(cannot > 0 ? [lost] : []),
  ];
  endWithFailures(ctx, options.maxFailures, failed + cannot, reports.length + cannot, why.join('; '));
}
