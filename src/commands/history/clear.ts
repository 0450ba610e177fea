// `wsm history clear`: forgets every change kept here (asks on a terminal, --yes otherwise).
import type { Context } from '../../cli/context.js';
import { countOf } from '../../cli/text.js';
import { openJournal } from '../../journal/journal.js';

export function parse(): void {}

export async function run(ctx: Context): Promise<number> {
  const store = await openJournal(ctx);
  const kept = store.list().length;
  if (kept === 0) return 0;
  await ctx.confirm(`Forget ${countOf(kept, 'change')} kept on this machine? None of them can be undone after`, 'clearing the history');
  return store.clear();
}

export function render(ctx: Context, cleared: number): void {
  if (ctx.output.structured) ctx.output.json({ cleared });
  ctx.output.done(cleared === 0 ? 'no changes kept: nothing to clear' : `forgot ${countOf(cleared, 'change')}`);
}
