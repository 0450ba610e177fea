// `wsm history show <change>`: who made the change, where, with what command, and its records as
// a plan shows them; -o json gives the change and its records as kept.
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { openJournal } from '../../journal/journal.js';
import { changeAsPlan } from '../../journal/as-plan.js';
import type { StoredChange } from '../../journal/store.js';
import { renderPlan } from '../contacts/plan-render.js';
import { findChange } from './change-ref.js';

export function parse({ args }: CommandLine): string {
  return args[0];
}

export async function run(ctx: Context, ref: string): Promise<StoredChange> {
  const store = await openJournal(ctx);
  return store.read(findChange(store, ref));
}

export async function render(ctx: Context, { meta, records }: StoredChange): Promise<void> {
  if (ctx.output.structured || ctx.output.selecting) return ctx.output.record({ ...meta, records });
  const lines = [
    `Change ${meta.id} at ${meta.when}${meta.undoes !== undefined ? ` (undoes ${meta.undoes})` : ''}`,
    `  ${meta.command}`,
    `  profile ${meta.profile}, ${meta.base_url}, workspace ${meta.workspace}`,
    ...(meta.ended === undefined
      ? ['  never ended: the command stopped before its end (records after the last sent may be unchanged)']
      : []),
    ...meta.notes.map((note) => `  note: ${note}`),
  ];
  ctx.output.text(`${lines.join('\n')}\n`);
  await renderPlan(ctx, changeAsPlan(records, meta.failed));
}
