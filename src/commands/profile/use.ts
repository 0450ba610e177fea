// `wsm profile use <name>`: switch the current profile. An unknown name is a usage error (exit 2).
import type { VerbInput } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';

export async function run(ctx: Context, input: VerbInput): Promise<void> {
  const [name] = input.args;
  const config = await ctx.config();
  if (!config.useProfile(name)) {
    throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`)`);
  }
  ctx.output.done(`now using profile "${name}"`);
}
