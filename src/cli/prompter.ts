// Interactive questions behind an interface: tests inject answers, and the real implementation
// loads @inquirer/prompts only when a question is actually asked.
import { InterruptedError, UsageError } from './errors.js';
import type { IOStreams } from './io.js';

export interface Prompter {
  input(message: string, options?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  /** Typed characters are echoed as `*`. */
  password(message: string): Promise<string>;
  confirm(message: string, defaultAnswer?: boolean): Promise<boolean>;
  /** One of `choices` (arrow keys); returns its value. */
  select(message: string, choices: Array<{ name: string; value: string }>): Promise<string>;
}

export function createPrompter(io: IOStreams): Prompter {
  const context = () => ({ input: io.stdin, output: io.promptOutput });
  const guard = async <T>(ask: () => Promise<T>): Promise<T> => {
    // Belt and braces: callers check for a terminal first, but a prompt on a pipe would hang CI.
    if (!io.isStdinTTY) throw new UsageError('cannot ask a question: standard input is not a terminal');
    try {
      return await ask();
    } catch (err) {
      // Ctrl-C inside a prompt (or the terminal gone): an interrupt like Ctrl-C anywhere else (130), not a crash.
      if (err instanceof Error && err.name === 'ExitPromptError') throw new InterruptedError('nothing was done');
      throw err;
    }
  };
  return {
    input: (message, options = {}) =>
      guard(async () => {
        const { input } = await import('@inquirer/prompts');
        return input({ message, required: true, ...options }, context());
      }),
    password: (message) =>
      guard(async () => {
        const { password } = await import('@inquirer/prompts');
        return password({ message, mask: '*', validate: (v) => v.trim() !== '' || 'required' }, context());
      }),
    confirm: (message, defaultAnswer = false) =>
      guard(async () => {
        const { confirm } = await import('@inquirer/prompts');
        return confirm({ message, default: defaultAnswer }, context());
      }),
    select: (message, choices) =>
      guard(async () => {
        const { select } = await import('@inquirer/prompts');
        return select({ message, choices }, context());
      }),
  };
}
