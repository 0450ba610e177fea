// `wsm auth logout`: revoke the profile's token on its server (the extension DELETE
// /auth/tokens/current, decisions.md §7), then forget it; base URL and workspace stay so that a
// later login only needs the token. A server without the extension gets the token forgotten
// locally, with one line saying so. Idempotent: no token is not an error.
import { AuthenticationError, UnsupportedEndpointError } from '../../api/errors.js';
import { typedRun } from '../declare.js';
import type { VerbRun } from '../shared/verb.js';
import type { logout } from '../auth.js';
import type { Context } from '../../cli/context.js';
import { CliError, exitCodeFor } from '../../cli/errors.js';

type Revocation = 'revoked' | 'rejected' | 'unsupported' | 'no-server';

export const run: VerbRun = typedRun<typeof logout>(async (ctx) => {
  const config = await ctx.config();
  const { profileName, baseUrl } = await ctx.settings();
  const profile = config.getProfile(profileName);
  if (profile?.token === undefined) {
    ctx.output.message(`Profile "${profileName}" holds no token: nothing to do`);
  } else {
    // The profile's own token, on the profile's own server (not WSM_TOKEN or --token).
    const outcome = await revoke(ctx, profile.base_url ?? baseUrl, profile.token, profileName);
    config.setProfile(profileName, { token: undefined });
    const where = `profile "${profileName}"`;
    if (outcome === 'revoked') ctx.output.done(`logged out: revoked the token on the server and removed it from ${where}`);
    else if (outcome === 'rejected') ctx.output.done(`logged out: the server no longer accepted the token; removed it from ${where}`);
    else if (outcome === 'unsupported') ctx.output.warn(`this server does not support revoking tokens: the token was only removed from ${where}`);
    else ctx.output.done(`logged out: removed the token of ${where}`);
  }
  if (ctx.env.WSM_TOKEN) ctx.output.warn('WSM_TOKEN is still set in the environment and will keep being used');
});

/** Any other failure keeps the token (it may still work on the server): the user can run logout again. */
async function revoke(ctx: Context, baseUrl: string | undefined, token: string, profileName: string): Promise<Revocation> {
  if (!baseUrl) return 'no-server';
  const client = await ctx.clientFor({ baseUrl, token });
  try {
    await client.auth.revokeCurrentToken();
    return 'revoked';
  } catch (error) {
    if (error instanceof UnsupportedEndpointError) return 'unsupported';
    if (error instanceof AuthenticationError) return 'rejected'; // expired or revoked already
    throw new CliError(
      `could not revoke the token on the server (${(error as Error).message}): it is kept in profile "${profileName}"; run \`wsm auth logout\` again when the server answers`,
      exitCodeFor(error),
    );
  }
}
