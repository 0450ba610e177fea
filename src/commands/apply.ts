// `wsm apply`: declarations only; the verb is ./workspace-file/apply.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';
import { planOptions } from './plan-options.js';

export function registerApply(program: Command): void {
  withExamples(
    planOptions(program.command('apply').description(SUMMARIES.apply))
      .option('--dry-run', 'show the plan and check it can be applied; change nothing (exit 0)')
      .action(lazy(() => import('./workspace-file/apply.js'))),
    ['wsm apply -f workspace.yaml', 'wsm apply -f workspace.yaml --prune --yes', 'wsm apply -f workspace.yaml --replace-templates --dry-run'],
  );
}
