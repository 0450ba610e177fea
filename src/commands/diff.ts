// `wsm diff`: declarations only; the verb is ./workspace-file/diff.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';
import { planOptions } from './plan-options.js';

export function registerDiff(program: Command): void {
  withExamples(
    planOptions(program.command('diff').description(SUMMARIES.diff)).action(lazy(() => import('./workspace-file/diff.js'))),
    [
      'wsm diff -f workspace.yaml',
      'wsm diff -f workspace.yaml --prune -o json',
      'wsm diff -f workspace.yaml || [ $? -eq 2 ]    # CI: exit 0 no changes, 2 changes planned, other codes fail',
    ],
  );
}
