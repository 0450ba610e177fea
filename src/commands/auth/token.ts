// `wsm auth token`: print the token in use (as gh auth token does), for a script or another tool:
// `curl -H "Authorization: Bearer $(wsm auth token --profile local)"`. The token is the one the
// settings give (--token, WSM_TOKEN, then the profile). On a terminal, stderr warns that it is a
// secret on the screen; piped, only the token is printed.
import { UsageError } from '../../cli/errors.js';
import { fromSource, originOf } from '../../cli/setting-source.js';
import type { Context } from '../../cli/context.js';

export function parse(): void {}

/** The token in use; on a terminal, a warning that it is about to be shown. */
export async function run(ctx: Context): Promise<string> {
  const settings = await ctx.settings();
  if (settings.token === undefined)
    throw new UsageError(`profile "${settings.profileName}" holds no token: run \`wsm auth login\` or \`wsm serve\``);
  if (ctx.io.isStdoutTTY) {
    ctx.output.warn(`this is the token${fromSource('token', originOf('token', settings))} in clear: whoever sees it can act as you`);
  }
  return settings.token;
}

export function render(ctx: Context, token: string): void {
  ctx.io.out(`${token}\n`);
}
