// `wsm diff`: declarations only; the verb is ./workspace-file/diff.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { asDiffFailure } from '../cli/errors.js';
import { addVerb, verbSpec } from './declare.js';
import { PLAN_FLAGS } from './plan-options.js';

export const diff = verbSpec({
  name: 'diff',
  description: SUMMARIES.diff,
  flags: PLAN_FLAGS,
  examples: [
    'wsm diff -f workspace.yaml',
    'wsm diff -f workspace.yaml --prune -o json',
    'wsm diff -f workspace.yaml || [ $? -eq 2 ]    # CI: 0 no changes, 2 changes planned; a failure is never 2 (a bad file is 1)',
  ],
  load: () => import('./workspace-file/diff.js'),
  recode: asDiffFailure,
});

export function registerDiff(program: Command, declared: { target: boolean }): void {
  // Exit 2 means "changes planned" here, so no failure may exit 2: commander's own (a missing -f,
  // an unknown or bad flag, global ones included) and the action's (a missing or invalid file) exit 1.
  if (declared.target) {
    program.exitOverride((err) => {
      throw asDiffFailure(err);
    });
  }
  addVerb(program, diff);
}
