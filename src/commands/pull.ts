// `wsm pull`: declarations only; the verb is ./workspace-file/pull.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';

export function registerPull(program: Command, declared: { target: boolean }): void {
  // pull prints YAML as well. -o is the global flag, parsed before the verb runs, so its choices
  // grow by yaml, but only when the command line names pull: no other verb (nor completion) sees it.
  const output = program.options.find((option) => option.long === '--output');
  if (declared.target && output?.argChoices && !output.argChoices.includes('yaml')) output.choices([...output.argChoices, 'yaml']);
  withExamples(
    program
      .command('pull')
      .description(SUMMARIES.pull)
      .option('-f, --file <path>', 'write to this file instead of stdout (JSON when it ends in .json, unless -o says)')
      .action(lazy(() => import('./workspace-file/pull.js'))),
    ['wsm pull > workspace.yaml', 'wsm pull -f workspace.yaml', 'wsm pull -o json > workspace.json'],
  );
}
