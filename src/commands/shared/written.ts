// What every create and update verb prints once the server has answered. A 2xx is a success
// whatever its body (the published API shows few of them): the record when the server sent one; otherwise a
// warning that its id is unknown (a create) and exit 0. With -o json the body is printed as it came.
import type { Written } from '../../api/answers.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';

export interface WrittenOptions<T> {
  /** The noun in messages ("label", "contact group"). */
  noun: string;
  columns: Column<T>[];
  /** The id of the record an update changed (known before the answer). */
  id?: number | string;
  /** Extra words after "Created label 4" (" (VIP)"), from the record. */
  describe?: (record: T) => string;
  /** Replaces the whole "Created …" line, from the record. */
  line?: (record: T) => string;
}

/** Prints the answer of a create (`options.id` unset) or an update; returns the record when there was one. */
export async function showWritten<T extends object>(ctx: Context, answer: Written<T>, options: WrittenOptions<T>): Promise<T | undefined> {
  const record = answer.data;
  const done = options.id === undefined ? 'created' : 'updated';
  if (record === undefined) {
    if (options.id === undefined)
      ctx.output.warn(`the ${options.noun} was created, but the server's answer holds no record: no id to show`);
    else ctx.output.done(`${done} ${options.noun} ${options.id}`);
    if (ctx.output.quiet && options.id !== undefined) ctx.output.text(`${options.id}\n`);
    else if (!ctx.output.quiet && ctx.output.structured && answer.body !== undefined) {
      ctx.output.json(answer.body);
    }
    return undefined;
  }
  const id = (record as { id?: unknown }).id ?? options.id;
  if (id === undefined || id === null) ctx.output.warn(`the server's answer gives no id for the ${options.noun}`);
  else ctx.output.done(options.line?.(record) ?? `${done} ${options.noun} ${String(id)}${options.describe?.(record) ?? ''}`);
  await ctx.output.record(record, { columns: options.columns });
  return record;
}
