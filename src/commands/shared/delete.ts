// Every `delete <id>` verb: parse the id, confirm, delete, then say so. On a terminal the
// question comes after what the server can say first: the caller's permission, where it says
// (permission-first.ts), then the record, read to name it (so a wrong id fails before any question):
// `Delete label VIP (id 3)? wsm undo can make it again, with a new id` (what an undo can do of
// it, undo-reach.ts: `this cannot be undone: ...` for a template); a resource can ask
// to type a name instead of y/N. Without a terminal a delete needs --yes, checked before any
// request. Data on stdout only for -o json/ndjson (the server's answer) and -q (the id).
import { UnsupportedEndpointError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import { CATALOG, type ResourceKey } from '../../api/descriptions/catalog.js';
import type { Context } from '../../cli/context.js';
import { CancelledError } from '../../cli/errors.js';
import { visible } from '../../cli/text.js';
import type { Verb } from '../../cli/action.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { deleteUndoNote } from '../../journal/undo-reach.js';
import { refuseWithoutPermission } from './permission-first.js';
import { parseId, workspaceClient } from './verb.js';

export interface DeleteOptions<T> {
  /** Reads the record to name it; a backend without that read falls back to the bare id. */
  read?: (client: WsmClient, id: number) => Promise<T>;
  /** How the record reads in the question: `order_update (id 11, APPROVED)`. */
  describe?: (record: T) => string;
  /** On a terminal, the text to type (a template's name) instead of answering y/N. */
  typeToConfirm?: (record: T) => string;
  /** What the delete leaves in place, said after it (`the contacts it created or updated stay`). */
  leaves?: string;
}

/** What a delete did: the id, how the record was named, and the server's answer. */
export interface Deleted {
  id: number;
  label: string;
  answer: unknown;
}

/** The delete verb of `resource`: `remove` deletes one record; `options` say how it is named and asked about. */
export function deleteVerb<T>(
  resource: ResourceKey,
  remove: (client: WsmClient, id: number, read?: T) => Promise<unknown>,
  options: DeleteOptions<T> = {},
): Verb<number, Deleted> {
  const { noun } = CATALOG[resource];
  return {
    parse: ({ args }) => parseId(args[0], `${noun} id`),
    async run(ctx, id) {
      const asking = !ctx.globals.yes;
      // Without a terminal this refuses (exit 2, "needs --yes") before anything is sent.
      if (asking && !ctx.io.isStdinTTY) await ctx.confirm(`Delete ${noun} ${id}?`, `deleting ${noun} ${id}`);
      const client = await workspaceClient(ctx);
      let asked: { label: string; record?: T } | undefined;
      if (asking) {
        await refuseWithoutPermission(ctx, client, [{ resource, operation: 'delete' }]);
        asked = await confirmDelete(ctx, client, resource, id, options);
      }
      const write = { resource, operation: 'delete', id, known: asked?.record };
      const answer = await journaledWrite(ctx, client, write, () => remove(client, id, asked?.record));
      return { id, label: asked?.label ?? `${noun} ${id}`, answer };
    },
    render(ctx, { id, label, answer }) {
      if (ctx.output.quiet) ctx.output.text(`${id}\n`);
      else if (ctx.output.structured) ctx.output.json(answer ?? { id });
      ctx.output.done(`deleted ${label}${options.leaves ? `; ${options.leaves}` : ''}`);
    },
  };
}

/** Asks on the terminal, naming the record; returns how the record was named, and the record where it was read. */
async function confirmDelete<T>(
  ctx: Context,
  client: WsmClient,
  resource: ResourceKey,
  id: number,
  options: DeleteOptions<T>,
): Promise<{ label: string; record?: T }> {
  const { noun } = CATALOG[resource];
  const undoable = deleteUndoNote(resource, ctx);
  let record: T | undefined;
  if (options.read) {
    try {
      record = await options.read(client, id);
    } catch (error) {
      // A 404 (no such record) ends here with exit 4; a server without the read only loses the name.
      if (!(error instanceof UnsupportedEndpointError)) throw error;
    }
  }
  // The name comes from the server: the prompt draws it raw, so its control characters are made visible here.
  const label = record !== undefined && options.describe ? `${noun} ${visible(options.describe(record))}` : `${noun} ${id}`;
  const expected = record !== undefined ? options.typeToConfirm?.(record) : undefined;
  if (expected === undefined) {
    await ctx.confirm(`Delete ${label}? ${undoable}`, `deleting ${label}`);
    return { label, record };
  }
  const typed = await ctx.prompter.input(`Delete ${label}? ${undoable}. Type its name (${expected}) to confirm`);
  if (typed.trim() !== expected) throw new CancelledError(`"${typed.trim()}" is not "${expected}": nothing was deleted`);
  return { label, record };
}
