// `wsm profile delete <name>`: forgets a saved profile and its token on this machine. On a terminal
// it asks first; otherwise it needs --yes. Deleting the current profile leaves none current, and
// says so. The token stays valid on the server: `wsm auth logout --revoke` is what revokes one.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';

interface DeletedProfile {
  name: string;
  wasCurrent: boolean;
}

export function parse({ args }: CommandLine): string {
  return args[0];
}

export async function run(ctx: Context, name: string): Promise<DeletedProfile> {
  const config = await ctx.config();
  if (config.getProfile(name) === undefined) throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`)`);
  const wasCurrent = config.currentName() === name;
  await ctx.confirm(
    `Delete profile "${name}"${wasCurrent ? ', the current one' : ''}? Its token is forgotten here, not revoked`,
    `deleting profile "${name}"`,
  );
  config.deleteProfile(name);
  return { name, wasCurrent };
}

export function render(ctx: Context, { name, wasCurrent }: DeletedProfile): void {
  if (ctx.output.quiet) ctx.output.text(`${name}\n`);
  else if (ctx.output.structured) ctx.output.json({ name, deleted: true, was_current: wasCurrent });
  const after = wasCurrent ? '; it was the current profile, so none is now: `wsm profile use <name>` picks one' : '';
  ctx.output.done(`deleted profile "${name}"${after}`);
}
