// `wsm pull`: declarations only; the verb is ./workspace-file/pull.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const PULL_FLAGS = {
  file: { flags: '-f, --file <path>', description: 'write to this file instead of stdout (JSON when it ends in .json, unless -o says)' },
} as const;

export const pull = verbSpec({
  name: 'pull',
  description: SUMMARIES.pull,
  flags: PULL_FLAGS,
  examples: ['wsm pull > workspace.yaml', 'wsm pull -f workspace.yaml', 'wsm pull -o json > workspace.json'],
  load: () => import('./workspace-file/pull.js'),
});

export function registerPull(program: Command, declared: { target: boolean }): void {
  // pull prints YAML as well. -o is the global flag, parsed before the verb runs, so its choices
  // grow by yaml, but only when the command line names pull: no other verb (nor completion) sees it.
  const output = program.options.find((option) => option.long === '--output');
  if (declared.target && output?.argChoices && !output.argChoices.includes('yaml')) output.choices([...output.argChoices, 'yaml']);
  addVerb(program, pull);
}
