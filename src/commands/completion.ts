// `wsm completion bash|zsh|fish`: prints a static completion script generated from the command
// tree itself, so every resource, verb and flag registered anywhere is included.
import { Argument, type Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function registerCompletion(program: Command): void {
  const completion = program
    .command('completion')
    .description(SUMMARIES.completion)
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    // The script is built from `program`, which the lazy verb cannot reach on its own.
    .action(
      lazy(async () => {
        const { completionScript } = await import('./completion/script.js');
        return { run: async (ctx, { args }) => ctx.io.out(completionScript(program, args[0] as (typeof SHELLS)[number])) };
      }),
    );
  withExamples(completion, [
    'wsm completion bash > ~/.local/share/bash-completion/completions/wsm',
    'source <(wsm completion zsh)',
    'wsm completion fish > ~/.config/fish/completions/wsm.fish',
  ]);
}

/** `wsm __complete <kind> [resource]`: hidden; the completion scripts call it for live values. */
export function registerCompleteValues(program: Command): void {
  program
    .command('__complete', { hidden: true })
    .argument('<kind>', 'profiles, workspaces, permissions or ids')
    .argument('[resource]', 'for ids: contacts, groups, ...')
    .action(lazy(() => import('./completion/complete.js')));
}
