// `wsm history show <change>`: who made the change, where, with what command, and its records as
// a plan shows them; -o json gives the change and its records as kept.
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { openJournal } from '../../journal/journal.js';
import { changeAsPlan } from '../../journal/as-plan.js';
import type { StoredChange } from '../../journal/store.js';
import { renderPlan } from '../contacts/plan-render.js';
import { findChange, writerOf } from './change-ref.js';

/** A change as kept, and whether another wsm is still writing it. */
interface ShownChange extends StoredChange {
  writing: boolean;
}

export function parse({ args }: CommandLine): string {
  return args[0];
}

export async function run(ctx: Context, ref: string): Promise<ShownChange> {
  const store = await openJournal(ctx);
  const meta = findChange(store, ref);
  return { ...store.read(meta), writing: store.beingWritten(meta) };
}

export async function render(ctx: Context, { meta, records, writing }: ShownChange): Promise<void> {
  if (ctx.output.structured || ctx.output.selecting) return ctx.output.record({ ...meta, ...(writing ? { writing } : {}), records });
  const lines = [
    `Change ${meta.id} at ${meta.when}${meta.undoes !== undefined ? ` (undoes ${meta.undoes})` : ''}`,
    `  ${meta.command}`,
    `  profile ${meta.profile}, ${meta.base_url}, workspace ${meta.workspace}`,
    ...(writing
      ? [`  still being written by ${writerOf(meta)}: the records so far (\`wsm undo\` refuses it until it ends)`]
      : meta.ended === undefined
        ? ['  never ended: the command stopped before its end (records after the last sent may be unchanged)']
        : []),
    ...meta.notes.map((note) => `  note: ${note}`),
  ];
  ctx.output.text(`${lines.join('\n')}\n`);
  await renderPlan(ctx, changeAsPlan(records, meta));
}
