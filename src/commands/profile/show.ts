// `wsm profile show [name]`: one saved profile (default: the one in use), token masked.
import { typedRun } from '../declare.js';
import type { VerbRun } from '../shared/verb.js';
import type { show } from '../profile.js';
import { UsageError } from '../../cli/errors.js';
import { profileColumns, profileRecord } from './record.js';

export const run: VerbRun = typedRun<typeof show>(async (ctx, input) => {
  const config = await ctx.config();
  const name = input.args[0] ?? (await ctx.profileName());
  const profile = config.getProfile(name);
  if (profile === undefined) {
    throw new UsageError(`no profile named "${name}" (see \`wsm profile list\`, or create it with \`wsm auth login --profile ${name}\`)`);
  }
  const record = profileRecord({ name, current: config.currentName() === name, profile });
  const columns = profileColumns.map((c) => (c.key === 'current' ? { key: 'current', header: 'CURRENT' } : c));
  await ctx.output.record(record, { columns, idKey: 'name' });
});
