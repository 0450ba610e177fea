// `wsm history clear`: forgets every change kept here (asks on a terminal, --yes otherwise).
import type { Context } from '../../cli/context.js';
import { countOf } from '../../cli/text.js';
import { openJournal } from '../../journal/journal.js';

export function parse(): void {}

export interface Cleared {
  cleared: number;
  /** Changes another wsm is still writing: kept. */
  writing: number;
}

export async function run(ctx: Context): Promise<Cleared> {
  const store = await openJournal(ctx);
  const kept = store.list().length;
  if (kept === 0) return { cleared: 0, writing: 0 };
  await ctx.confirm(`Forget ${countOf(kept, 'change')} kept on this machine? None of them can be undone after`, 'clearing the history');
  return store.clear();
}

export function render(ctx: Context, { cleared, writing }: Cleared): void {
  if (ctx.output.structured) ctx.output.json({ cleared, ...(writing > 0 ? { writing } : {}) });
  const still = writing > 0 ? `; kept ${countOf(writing, 'change')} another wsm is still writing` : '';
  ctx.output.done(cleared === 0 && writing === 0 ? 'no changes kept: nothing to clear' : `forgot ${countOf(cleared, 'change')}${still}`);
}
