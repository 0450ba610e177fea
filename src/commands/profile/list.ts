// `wsm profile list`: every saved profile, the current one marked.
import type { VerbInput } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';
import { profileColumns, profileRecord } from './record.js';

export async function run(ctx: Context, _input: VerbInput): Promise<void> {
  const config = await ctx.config();
  const rows = config.listProfiles().map(profileRecord);
  const count = await ctx.output.list(rows, { columns: profileColumns, idKey: 'name' });
  if (count === 0) ctx.output.message('No profiles yet: run `wsm auth login` or `wsm serve`');
}
