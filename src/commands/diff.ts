// `wsm diff`: declarations only; the verb is ./workspace-file/diff.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';
import { ExitCode, exitCodeFor, OutcomeExit, RecodedError } from '../cli/errors.js';
import { planOptions } from './plan-options.js';

export function registerDiff(program: Command, declared: { target: boolean }): void {
  // Exit 2 means "changes planned" here, so no failure may exit 2: commander's own (a missing -f,
  // an unknown or bad flag, global ones included) and the action's (a missing or invalid file) exit 1.
  if (declared.target) {
    program.exitOverride((err) => {
      throw asDiffFailure(err);
    });
  }
  const run = lazy(() => import('./workspace-file/diff.js'));
  withExamples(
    planOptions(program.command('diff').description(SUMMARIES.diff)).action(async (...params: unknown[]) => {
      try {
        await run(...params);
      } catch (err) {
        throw asDiffFailure(err);
      }
    }),
    [
      'wsm diff -f workspace.yaml',
      'wsm diff -f workspace.yaml --prune -o json',
      'wsm diff -f workspace.yaml || [ $? -eq 2 ]    # CI: 0 no changes, 2 changes planned; a failure is never 2 (a bad file is 1)',
    ],
  );
}

/**
 * `wsm diff` exits 2 for "changes planned" (ChangesPlannedError, an OutcomeExit), so a failure that
 * exits 2 elsewhere (a bad flag, a missing or invalid file) exits 1 there, as in Terraform:
 * `wsm diff -f f.yaml || [ $? -eq 2 ]` then fails the CI job on a broken file. Every other code
 * (3 auth, 6 server, ...) is kept. Here, not in workspace-file/: diff is declared at every start-up.
 */
function asDiffFailure(err: unknown): unknown {
  if (err instanceof OutcomeExit || exitCodeFor(err) !== ExitCode.usage) return err;
  return new RecodedError(err, ExitCode.failure);
}
