// `wsm auth token`: print the token in use (as gh auth token does), for a script or another tool:
// `curl -H "Authorization: Bearer $(wsm auth token --profile local)"`. The token is the one the
// settings give (--token, WSM_TOKEN, then the profile). On a terminal, stderr warns that it is a
// secret on the screen; piped, only the token is printed.
import { UsageError } from '../../cli/errors.js';
import { fromSource, originOf } from '../../cli/setting-source.js';
import { typedRun } from '../declare.js';
import type { VerbRun } from '../shared/verb.js';
import type { token } from '../auth.js';

export const run: VerbRun = typedRun<typeof token>(async (ctx) => {
  const settings = await ctx.settings();
  if (settings.token === undefined) throw new UsageError(`profile "${settings.profileName}" holds no token: run \`wsm auth login\` or \`wsm serve\``);
  if (ctx.io.isStdoutTTY) {
    ctx.output.warn(`this is the token${fromSource('token', originOf('token', settings))} in clear: whoever sees it can act as you`);
  }
  ctx.io.out(`${settings.token}\n`);
});
