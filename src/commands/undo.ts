// `wsm undo`: declarations only; the verb is ./undo/undo.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, CONCURRENCY_FLAG, maxFailuresFlag, verbSpec } from './declare.js';

export const UNDO_FLAGS = {
  dryRun: { flags: '--dry-run', description: 'show the plan of the undo against the live workspace; change nothing' },
  force: { flags: '--force', description: 'set back too the contacts changed again since the change (flagged ! in the plan)' },
  concurrency: CONCURRENCY_FLAG,
  maxFailures: maxFailuresFlag('contacts'),
} as const;

export const undo = verbSpec({
  name: 'undo',
  description: SUMMARIES.undo,
  args: [['<change>', 'the change id from `wsm history`, or last']],
  flags: UNDO_FLAGS,
  // Lines under 60 columns: commander does not wrap this text, and help must fit a 60-column terminal.
  configure: (c) =>
    c.addHelpText(
      'after',
      '\nA change another wsm is still writing (an import or a\n--from run in another terminal) is refused, exit 1, nothing\nsent: undo it once that command ends. A change whose\ncommand was stopped or killed is undone as far as it went.',
    ),
  examples: ['wsm undo last --dry-run', 'wsm undo 20261128-171522-483', 'wsm undo 20261128-171522-483 --force --yes'],
  load: () => import('./undo/undo.js'),
});

export function registerUndo(program: Command): void {
  addVerb(program, undo);
}
