// `wsm profile list`: every saved profile, the one a command would use marked: --profile or
// WSM_PROFILE when set, else the current one.
import type { Context } from '../../cli/context.js';
import { profileColumns, profileRecord, type ProfileRecord } from './record.js';

export function parse(): void {}

export async function run(ctx: Context): Promise<ProfileRecord[]> {
  const inUse = await ctx.profileName();
  return (await ctx.config()).listProfiles().map((entry) => profileRecord({ ...entry, current: entry.name === inUse }));
}

export async function render(ctx: Context, profiles: ProfileRecord[]): Promise<void> {
  const count = await ctx.output.list(profiles, { columns: profileColumns, idKey: 'name' });
  if (count === 0) ctx.output.message('No profiles yet: run `wsm auth login` or `wsm serve`');
}
