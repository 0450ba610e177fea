// `wsm profile use <name>`: switch the current profile. An unknown name is a usage error (exit 2).
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';

export function parse({ args }: CommandLine): string {
  return args[0];
}

export async function run(ctx: Context, name: string): Promise<string> {
  const config = await ctx.config();
  if (!config.useProfile(name)) {
    throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`)`);
  }
  return name;
}

export function render(ctx: Context, name: string): void {
  ctx.output.done(`now using profile "${name}"`);
}
