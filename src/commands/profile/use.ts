// `wsm profile use <name>`: switch the current profile. An unknown name is a usage error (exit 2).
import { typedRun } from '../declare.js';
import type { VerbRun } from '../shared/verb.js';
import type { use } from '../profile.js';
import { UsageError } from '../../cli/errors.js';

export const run: VerbRun = typedRun<typeof use>(async (ctx, input) => {
  const [name] = input.args;
  const config = await ctx.config();
  if (!config.useProfile(name)) {
    throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`)`);
  }
  ctx.output.done(`now using profile "${name}"`);
});
