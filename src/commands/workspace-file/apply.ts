// `wsm apply -f FILE [--prune] [--replace-templates] [--dry-run] [--yes] [--state FILE]`: shows the
// plan, asks on a terminal (--yes without one), makes the changes in dependency order and reports
// each; after a failure it goes on with the rest and exits with the failure's code.
import { ApplyIncompleteError, CliError, ExitCode, UsageError } from '../../cli/errors.js';
import type { Context } from '../../cli/context.js';
import type { APPLY_FLAGS } from '../apply.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import { execute, type Outcome } from './execute.js';
import { applyCommand, preparePlan, type Prepared } from './prepare.js';
import { changeTitle, planData, planText, workspaceText } from './render.js';
import { unsupportedSummary } from './support.js';
import type { Change } from './plan.js';
import { confirmPermitted, type AskedChange } from '../shared/permission-first.js';

/** The operations a change makes: a template replaced is deleted, then made again. */
const asked = ({ action, section }: Change): AskedChange[] =>
  action === 'replace'
    ? [
        { resource: section, operation: 'delete' },
        { resource: section, operation: 'create' },
      ]
    : [{ resource: section, operation: action }];

function outcomeLine(outcome: Outcome): string {
  const title = changeTitle(outcome.change);
  if (outcome.status === 'failed') return `${title}: failed: ${outcome.error}`;
  return `${title}: ${outcome.status}${outcome.id !== undefined ? ` (id ${outcome.id})` : ''}`;
}

function countOf(outcomes: Outcome[], status: Outcome['status']): number {
  return outcomes.filter((o) => o.status === status).length;
}

function completeSentence(outcomes: Outcome[]): string {
  const parts = (['created', 'updated', 'replaced', 'deleted'] as const).map((status) => `${countOf(outcomes, status)} ${status}`);
  return `Apply complete: ${parts.join(', ')}.`;
}

/**
 * Why each failure happened decides what to say about running again: an operation the server
 * lacks fails the same way every time, a change the server refused (a 4xx) fails again until it
 * is corrected, and only what may pass later (no answer, a 5xx, 429) is finished by a re-run.
 */
function failureKind(outcome: Outcome): 'unsupported' | 'refused' | 'transient' {
  if (outcome.unsupported) return 'unsupported';
  return outcome.exitCode === ExitCode.unavailable || outcome.exitCode === undefined ? 'transient' : 'refused';
}

function incompleteSentence(outcomes: Outcome[], rerun: string, file: string): string {
  const title = (o: Outcome) => `${o.change.section} ${o.change.key}`;
  const failures = outcomes.filter((o) => o.status === 'failed');
  const skipped = outcomes.filter((o) => o.status === 'not attempted').map(title);
  const applied = outcomes.length - failures.length - skipped.length;
  const of = (kind: ReturnType<typeof failureKind>) => failures.filter((o) => failureKind(o) === kind).map(title);
  const [unsupported, refused, transient] = [of('unsupported'), of('refused'), of('transient')];
  const only = (names: string[]) => (names.length === failures.length ? 'what failed' : names.join(', '));
  const finishing = transient.length > 0 || skipped.length > 0;
  return [
    `apply incomplete: ${applied} of ${outcomes.length} changes made`,
    `${failures.length} failed (${failures.map(title).join(', ')})`,
    ...(skipped.length ? [`${skipped.length} not attempted (${skipped.join(', ')})`] : []),
    ...(unsupported.length ? [`this server does not support ${only(unsupported)}: make it another way, or take it out of ${file}`] : []),
    ...(refused.length
      ? [
          `the server refused ${only(refused)}: running again changes nothing until it is corrected (in ${file}, a file it names, or on the server)`,
        ]
      : []),
    ...(finishing ? [`re-run \`${rerun}\` to finish${refused.length || unsupported.length ? ' the rest' : ''}`] : []),
  ].join('; ');
}

export type ApplyOptions = FlagOptions<typeof APPLY_FLAGS>;

/** What an apply did: the plan it made, and each change's outcome once it was applied. */
export interface ApplyReport {
  prepared: Prepared;
  applied: boolean;
  dryRun?: true;
  outcomes: Outcome[];
  /** Why it ends with a failure (a plan it cannot make, a change that failed): thrown once the report is out. */
  failure?: Error;
}

/** What a person watches while the apply works: the plan before the question, each change as it ends. */
export interface ApplyLive {
  planned(prepared: Prepared): void;
  applying(): void;
  outcome(outcome: Outcome): void;
}

export function parse({ opts }: CommandLine<typeof APPLY_FLAGS>): ApplyOptions {
  return opts;
}

export async function run(ctx: Context, options: ApplyOptions, live?: ApplyLive): Promise<ApplyReport> {
  const prepared = await preparePlan(ctx, options);
  const { loaded, plan, state, observed, target } = prepared;
  const report = (extra: Partial<ApplyReport>): ApplyReport => ({ prepared, applied: false, outcomes: [], ...extra });
  live?.planned(prepared);
  if (plan.changes.length === 0) return report({});
  if (plan.counts.blocked > 0) {
    return report({
      failure: new UsageError(
        `${plan.counts.blocked} template change${plan.counts.blocked === 1 ? '' : 's'} cannot be made in place: pass --replace-templates, or restore the content; nothing was changed`,
      ),
    });
  }
  const unsupported = unsupportedSummary(plan);
  if (unsupported !== undefined && options.dryRun !== true) {
    // Never "re-run to finish": no run can make these changes on this server.
    return report({
      failure: new CliError(
        `this server does not support ${unsupported}: nothing was changed; make these changes another way, or take them out of ${loaded.path}`,
        ExitCode.failure,
      ),
    });
  }
  if (options.dryRun === true) return report({ dryRun: true });
  // A journal that cannot take the change stops it before the question, as it does a single verb.
  const { journalReady } = await import('../../journal/journal.js');
  await journalReady(ctx);
  const count = plan.changes.length;
  const changes = `${count} change${count === 1 ? '' : 's'} to workspace ${workspaceText(target)} on ${target.server}`;
  await confirmPermitted(ctx, prepared.client, plan.changes.flatMap(asked), `Apply ${changes}?`, `applying ${changes}`);

  const { beginApplyChange } = await import('../../journal/apply-change.js');
  const journal = await beginApplyChange(ctx, prepared);
  for (const { section, key } of observed.stale) await state?.forget(section, key);
  live?.applying();
  let outcomes: Outcome[];
  try {
    outcomes = await execute(prepared, (outcome) => {
      journal?.record(outcome);
      live?.outcome(outcome);
    });
  } finally {
    journal?.end();
  }
  const firstFailure = outcomes.find((o) => o.status === 'failed');
  const failure =
    firstFailure &&
    new ApplyIncompleteError(
      incompleteSentence(outcomes, applyCommand(loaded.path, options), loaded.path),
      firstFailure.exitCode ?? ExitCode.failure,
    );
  return report({ applied: true, outcomes, ...(failure ? { failure } : {}) });
}

/** The report as data, as -o json prints it and `wsm mcp` returns it: the plan, then what was done. */
export function applyData({ prepared, applied, dryRun, outcomes }: ApplyReport): Record<string, unknown> {
  const results = outcomes.map(({ change, status, id, error, exitCode }) => ({
    action: change.action,
    section: change.section,
    key: change.key,
    status,
    ...(id !== undefined ? { id } : {}),
    ...(error !== undefined ? { error, exit_code: exitCode } : {}),
  }));
  return {
    ...planData(prepared.plan, { file: prepared.loaded.path, target: prepared.target }),
    applied,
    ...(dryRun ? { dry_run: true } : {}),
    results,
  };
}

/** For people, the plan and each change are printed as they come (-o json prints the report at the end). */
export function live(ctx: Context): ApplyLive | undefined {
  if (ctx.output.structured) return undefined;
  return {
    planned: ({ plan, loaded, target }) => ctx.output.text(planText(plan, loaded.path, ctx.io.colorEnabled, target)),
    applying: () => ctx.output.text('\n'),
    outcome: (outcome) => ctx.output.text(outcomeLine(outcome) + '\n'),
  };
}

export function render(ctx: Context, report: ApplyReport): void {
  if (ctx.output.structured) return ctx.output.json(applyData(report));
  if (report.dryRun) ctx.output.text('Dry run: nothing was changed.\n');
  else if (report.applied && report.failure === undefined) ctx.output.text(completeSentence(report.outcomes) + '\n');
}

/** A plan it could not make, or a change that failed: the exit, once the report is out. */
export function settle(_ctx: Context, report: ApplyReport): void {
  if (report.failure) throw report.failure;
}
