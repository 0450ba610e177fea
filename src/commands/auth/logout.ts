// `wsm auth logout [--revoke]`: forget the profile's token; base URL and workspace stay so that a
// later login only needs the token. The token keeps working on the server unless --revoke (the
// extension DELETE /auth/tokens/current, decisions.md §7): other profiles, other machines and CI
// jobs often hold the same token (`wsm serve`'s admin token above all), so revoking it is asked
// for, and then every other profile that held it is named. A server without the extension gets
// the token forgotten locally, with one line saying so. Idempotent: no token is not an error.
import { AuthenticationError, UnsupportedEndpointError } from '../../api/errors.js';
import type { CommandLine } from '../declare.js';
import type { LOGOUT_FLAGS } from '../auth.js';
import type { Context } from '../../cli/context.js';
import type { ConfigStore } from '../../cli/config.js';
import { CliError, exitCodeFor } from '../../cli/errors.js';

type Revocation = 'revoked' | 'rejected' | 'unsupported' | 'no-server';

export interface LogoutOptions {
  revoke: boolean;
}

/** What a logout did to the profile: nothing (it held no token), forgot the token, or forgot it after asking the server to revoke it. */
export interface LoggedOut {
  profileName: string;
  outcome: 'no-token' | 'forgotten' | Revocation;
  /** Revoked: the other profiles that held the same token (refused from now on). */
  others: string[];
  /** WSM_TOKEN is set: it goes on being used whatever the profile holds. */
  envToken: boolean;
}

export function parse({ opts }: CommandLine<typeof LOGOUT_FLAGS>): LogoutOptions {
  return { revoke: opts.revoke === true };
}

export async function run(ctx: Context, { revoke: revoking }: LogoutOptions): Promise<LoggedOut> {
  const config = await ctx.config();
  const { profileName, baseUrl } = await ctx.settings();
  const profile = config.getProfile(profileName);
  const report = (outcome: LoggedOut['outcome'], others: string[] = []): LoggedOut => ({
    profileName,
    outcome,
    others,
    envToken: Boolean(ctx.env.WSM_TOKEN),
  });
  if (profile?.token === undefined) return report('no-token');
  if (!revoking) {
    config.setProfile(profileName, { token: undefined });
    return report('forgotten');
  }
  // The profile's own token, on the profile's own server (not WSM_TOKEN or --token).
  const others = holdersOf(config, profile.token, profileName);
  const outcome = await revoke(ctx, profile.base_url ?? baseUrl, profile.token, profileName);
  config.setProfile(profileName, { token: undefined });
  return report(outcome, outcome === 'revoked' ? others : []);
}

export function render(ctx: Context, { profileName, outcome, others, envToken }: LoggedOut): void {
  const where = `profile "${profileName}"`;
  if (outcome === 'no-token') ctx.output.message(`Profile "${profileName}" holds no token: nothing to do`);
  else if (outcome === 'forgotten')
    ctx.output.done(
      `logged out: removed the token from ${where}; it still works on the server (\`wsm auth logout --revoke\` revokes it there)`,
    );
  else if (outcome === 'revoked') ctx.output.done(`logged out: revoked the token on the server and removed it from ${where}`);
  else if (outcome === 'rejected') ctx.output.done(`logged out: the server no longer accepted the token; removed it from ${where}`);
  else if (outcome === 'unsupported')
    ctx.output.warn(`this server does not support revoking tokens: the token was only removed from ${where}`);
  else ctx.output.done(`logged out: removed the token of ${where}`);
  if (others.length > 0) {
    const names = others.map((name) => `"${name}"`).join(', ');
    ctx.output.warn(
      `${others.length === 1 ? 'profile' : 'profiles'} ${names} held the same token: ${others.length === 1 ? 'it' : 'they'} will be refused until logged in again (\`wsm auth login --profile ${others[0]}\`)`,
    );
  }
  if (envToken) ctx.output.warn('WSM_TOKEN is still set in the environment and will keep being used');
}

/** The other profiles that hold `token`. */
function holdersOf(config: ConfigStore, token: string, except: string): string[] {
  return config
    .listProfiles()
    .filter((entry) => entry.name !== except && entry.profile.token === token)
    .map((entry) => entry.name);
}

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
      `could not revoke the token on the server (${(error as Error).message}): it is kept in profile "${profileName}"; run \`wsm auth logout --revoke\` again when the server answers`,
      exitCodeFor(error),
    );
  }
}
