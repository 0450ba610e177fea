// `wsm profile list`: every saved profile, the current one marked.
import { typedRun } from '../declare.js';
import type { VerbRun } from '../shared/verb.js';
import type { list } from '../profile.js';
import { profileColumns, profileRecord } from './record.js';

export const run: VerbRun = typedRun<typeof list>(async (ctx) => {
  const config = await ctx.config();
  const rows = config.listProfiles().map(profileRecord);
  const count = await ctx.output.list(rows, { columns: profileColumns, idKey: 'name' });
  if (count === 0) ctx.output.message('No profiles yet: run `wsm auth login` or `wsm serve`');
});
