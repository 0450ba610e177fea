// `wsm auth logout`: drop the token of the profile in use; its base URL and workspace stay so
// that a later login only needs the token. Idempotent: no token is not an error.
import type { VerbInput } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';

export async function run(ctx: Context, _input: VerbInput): Promise<void> {
  const config = await ctx.config();
  const { profileName } = await ctx.settings();
  const profile = config.getProfile(profileName);
  if (profile?.token === undefined) {
    ctx.output.message(`Profile "${profileName}" holds no token: nothing to do`);
  } else {
    config.setProfile(profileName, { token: undefined });
    ctx.output.message(`Logged out: removed the token of profile "${profileName}"`);
  }
  if (ctx.env.WSM_TOKEN) ctx.output.warn('WSM_TOKEN is still set in the environment and will keep being used');
}
