// `wsm apply`: declarations only; the verb is ./workspace-file/apply.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';
import { PLAN_FLAGS } from './plan-options.js';

export const APPLY_FLAGS = {
  ...PLAN_FLAGS,
  dryRun: { flags: '--dry-run', description: 'show the plan and check it can be applied; change nothing (exit 0)' },
} as const;

export const apply = verbSpec({
  name: 'apply',
  description: SUMMARIES.apply,
  flags: APPLY_FLAGS,
  examples: [
    'wsm apply -f workspace.yaml',
    'wsm apply -f workspace.yaml --prune --yes',
    'wsm apply -f workspace.yaml --replace-templates --dry-run',
  ],
  load: () => import('./workspace-file/apply.js'),
});

export function registerApply(program: Command): void {
  addVerb(program, apply);
}
