// `wsm history`: the changes kept on this machine, newest first.
import type { Column } from '../../cli/columns.js';
import type { Context } from '../../cli/context.js';
import { openJournal } from '../../journal/journal.js';
import type { ChangeMeta } from '../../journal/records.js';

const columns: Column<ChangeMeta>[] = [
  { key: 'id', header: 'CHANGE' },
  { key: 'when', header: 'WHEN' },
  { key: 'profile', header: 'PROFILE' },
  { key: 'summary', header: 'WHAT' },
  { key: 'records', header: 'RECORDS' },
  { key: 'failed', header: 'FAILED', get: (change) => change.failed?.length ?? 0 },
];

export function parse(): void {}

export async function run(ctx: Context): Promise<ChangeMeta[]> {
  return (await openJournal(ctx)).list((damage) => ctx.output.warn(`the change journal's ${damage.file} ${damage.what}: left out`));
}

export async function render(ctx: Context, changes: ChangeMeta[]): Promise<void> {
  const count = await ctx.output.list(changes, { columns });
  if (count === 0) ctx.output.message('No changes kept yet: each change a wsm command makes is kept here, to show or undo');
}
