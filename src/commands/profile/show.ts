// `wsm profile show [name]`: one saved profile (default: the one in use), token masked.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';
import { profileColumns, profileRecord, type ProfileRecord } from './record.js';

/** The profile named, or (undefined) the one in use. */
export function parse({ args }: CommandLine): string | undefined {
  return args[0];
}

export async function run(ctx: Context, named: string | undefined): Promise<ProfileRecord> {
  const config = await ctx.config();
  const name = named ?? (await ctx.profileName());
  const profile = config.getProfile(name);
  if (profile === undefined) {
    throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`, or create it with \`wsm auth login --profile ${name}\`)`);
  }
  return profileRecord({ name, current: config.currentName() === name, profile });
}

export async function render(ctx: Context, profile: ProfileRecord): Promise<void> {
  const columns = profileColumns.map((c) => (c.key === 'current' ? { key: 'current', header: 'CURRENT' } : c));
  await ctx.output.record(profile, { columns, idKey: 'name' });
}
