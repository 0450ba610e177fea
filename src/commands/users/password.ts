// `--password` with a value uses it; without one it is asked twice, masked, on a terminal, and is
// an error without one (nothing ever waits for input on a pipe).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';

export async function resolvePassword(ctx: Context, flag: unknown): Promise<string | undefined> {
  if (flag === undefined || flag === false) return undefined;
  if (typeof flag === 'string') return flag;
  if (!ctx.io.isStdinTTY) {
    throw new UsageError('--password without a value asks on a terminal; standard input is not one: pass --password <value>');
  }
  const first = await ctx.prompter.password('New password');
  const second = await ctx.prompter.password('Repeat the password');
  if (first !== second) throw new UsageError('the two passwords differ: nothing was sent');
  return first;
}
