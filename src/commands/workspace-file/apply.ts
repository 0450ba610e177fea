// `wsm apply -f FILE [--prune] [--replace-templates] [--dry-run] [--yes] [--state FILE]`: shows the
// plan, asks on a terminal (--yes without one), makes the changes in dependency order and reports
// each; after a failure it goes on with the rest and exits with the failure's code.
import { ApplyIncompleteError, CliError, ExitCode, UsageError } from '../../cli/errors.js';
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { apply } from '../apply.js';
import { execute, type Outcome } from './execute.js';
import { applyCommand, preparePlan } from './prepare.js';
import { changeTitle, planData, planText, workspaceText } from './render.js';
import { unsupportedSummary } from './support.js';

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
    ...(refused.length ? [`the server refused ${only(refused)}: running again changes nothing until it is corrected (in ${file}, a file it names, or on the server)`] : []),
    ...(finishing ? [`re-run \`${rerun}\` to finish${refused.length || unsupported.length ? ' the rest' : ''}`] : []),
  ].join('; ');
}

export const run: VerbRun = typedRun<typeof apply>(async (ctx, { opts }) => {
  const prepared = await preparePlan(ctx, opts);
  const { loaded, plan, state, observed, target } = prepared;
  const json = ctx.output.structured;
  const print = (text: string) => {
    if (!json) ctx.output.text(text);
  };
  const finish = (extra: Record<string, unknown>) => {
    if (json) ctx.output.json({ ...planData(plan, { file: loaded.path, target }), ...extra });
  };

  print(planText(plan, loaded.path, ctx.io.colorEnabled, target));
  if (plan.changes.length === 0) return finish({ applied: false, results: [] });
  if (plan.counts.blocked > 0) {
    finish({ applied: false, results: [] });
    throw new UsageError(`${plan.counts.blocked} template change${plan.counts.blocked === 1 ? '' : 's'} cannot be made in place: pass --replace-templates, or restore the content; nothing was changed`);
  }
  const unsupported = unsupportedSummary(plan);
  if (unsupported !== undefined && opts.dryRun !== true) {
    finish({ applied: false, results: [] });
    // Never "re-run to finish": no run can make these changes on this server.
    throw new CliError(`this server does not support ${unsupported}: nothing was changed; make these changes another way, or take them out of ${loaded.path}`, ExitCode.failure);
  }
  if (opts.dryRun === true) {
    print('Dry run: nothing was changed.\n');
    return finish({ applied: false, dry_run: true, results: [] });
  }
  const count = plan.changes.length;
  const changes = `${count} change${count === 1 ? '' : 's'} to workspace ${workspaceText(target)} on ${target.server}`;
  await ctx.confirm(`Apply ${changes}?`, `applying ${changes}`);

  for (const { section, key } of observed.stale) await state?.forget(section, key);
  print('\n');
  const outcomes = await execute(prepared, (outcome) => print(outcomeLine(outcome) + '\n'));
  const results = outcomes.map(({ change, status, id, error, exitCode }) => ({
    action: change.action,
    section: change.section,
    key: change.key,
    status,
    ...(id !== undefined ? { id } : {}),
    ...(error !== undefined ? { error, exit_code: exitCode } : {}),
  }));
  const firstFailure = outcomes.find((o) => o.status === 'failed');
  finish({ applied: true, results });
  if (!firstFailure) {
    print(completeSentence(outcomes) + '\n');
    return;
  }
  throw new ApplyIncompleteError(incompleteSentence(outcomes, applyCommand(loaded.path, opts), loaded.path), firstFailure.exitCode ?? ExitCode.failure);
});
