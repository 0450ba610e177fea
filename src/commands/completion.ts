// `wsm completion bash|zsh|fish`: prints a static completion script generated from the command
// tree itself, so every resource, verb and flag registered anywhere is included.
import { Argument, type Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy } from '../cli/action.js';
import { addVerb } from './declare.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function registerCompletion(program: Command): void {
  addVerb(program, {
    name: 'completion',
    description: SUMMARIES.completion,
    configure: (c) => c.addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS)),
    examples: [
      'wsm completion bash > ~/.local/share/bash-completion/completions/wsm',
      'source <(wsm completion zsh)',
      'wsm completion fish > ~/.config/fish/completions/wsm.fish',
    ],
    // The script is built from `program`, which the lazy verb cannot reach on its own.
    load: async () => {
      const { completionScript } = await import('./completion/script.js');
      return {
        parse: ({ args }) => args[0] as (typeof SHELLS)[number],
        run: async (_ctx, shell: (typeof SHELLS)[number]) => completionScript(program, shell),
        render: (ctx, script: string) => ctx.output.text(script),
      };
    },
  });
}

/** `wsm __complete <kind> [resource]`: hidden; the completion scripts call it for live values. */
export function registerCompleteValues(program: Command): void {
  program
    .command('__complete', { hidden: true })
    .argument('<kind>', 'profiles, workspaces, permissions or ids')
    .argument('[resource]', 'for ids: contacts, groups, ...')
    .action(lazy(() => import('./completion/complete.js')));
}
