// Verb bodies for the plain collections (groups, fields, labels, roles): each verb file picks
// its resource from the client and passes its columns; the flow is the same for all four.
import type { z } from 'zod';
import type { WsmClient } from '../../api/client.js';
import type { CrudResource } from '../../api/resources/crud.js';
import type { Column } from '../../cli/output.js';
import { deleteRun } from './delete.js';
import { parsePageFlags, renderList } from './list.js';
import { checkLocal, nameBodyFields, parseId, requireSomething, verb, workspaceClient, type VerbRun } from './verb.js';
import { showWritten } from './written.js';

// The body schemas differ per resource; the verbs check bodies themselves before calling.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCrud<T> = CrudResource<T, any, any>;
type Picker<T> = (client: WsmClient) => AnyCrud<T>;

export interface Presentation<T> {
  /** Singular noun for messages ("label"). */
  noun: string;
  columns: Column<T>[];
  /** Columns for a single record; defaults to `columns`. */
  detail?: Column<T>[];
  /** How a record is named in a delete confirmation: `VIP (id 3, 12 contacts)`. */
  describe?: (record: T) => string;
}

/** The delete verb of a plain collection: the confirmation reads and names the record. */
export function deleteCollectionRun<T extends object>(pick: Picker<T>, show: Presentation<T>): VerbRun {
  return deleteRun<T>(show.noun, (client, id) => pick(client).delete(id), {
    read: async (client, id) => (await pick(client).get(id)).data,
    describe: show.describe,
  });
}

export function listRun<T extends object>(pick: Picker<T>, show: Presentation<T>): VerbRun {
  return verb(async (ctx, { opts }) => {
    const flags = parsePageFlags(ctx, opts);
    const resource = pick(await workspaceClient(ctx));
    await renderList(ctx, flags, { page: (q) => resource.list(q), all: (q, s) => resource.iterate(q, s) }, {}, { columns: show.columns, noun: `${show.noun}s` });
  });
}

export function getRun<T extends object>(pick: Picker<T>, show: Presentation<T>): VerbRun {
  return verb(async (ctx, { args }) => {
    const id = parseId(args[0], `${show.noun} id`);
    const { data } = await pick(await workspaceClient(ctx)).get(id);
    await ctx.output.record(data, { columns: show.detail ?? show.columns });
  });
}

/** `build` turns args/flags into the body; it is checked with `schema` before anything is sent. */
export function createRun<T extends object>(
  pick: Picker<T>,
  show: Presentation<T>,
  schema: z.ZodType,
  build: (args: string[], opts: Record<string, unknown>) => Record<string, unknown>,
  flags: Record<string, string> = {},
): VerbRun {
  return verb(async (ctx, { args, opts }) => {
    const body = build(args, opts);
    nameBodyFields(ctx, body, flags);
    checkLocal(schema, body, show.noun);
    await showWritten(ctx, await pick(await workspaceClient(ctx)).create(body), { noun: show.noun, columns: show.detail ?? show.columns });
  });
}

export function updateRun<T extends object>(
  pick: Picker<T>,
  show: Presentation<T>,
  schema: z.ZodType,
  build: (opts: Record<string, unknown>) => Record<string, unknown>,
  /** Body field -> its flag: a 422 names the flag, and an update with none of them is refused. */
  flags: Record<string, string> = {},
): VerbRun {
  return verb(async (ctx, { args, opts }) => {
    const id = parseId(args[0], `${show.noun} id`);
    const body = build(opts);
    requireSomething(body, Object.values(flags));
    nameBodyFields(ctx, body, flags);
    checkLocal(schema, body, show.noun);
    await showWritten(ctx, await pick(await workspaceClient(ctx)).update(id, body), { noun: show.noun, columns: show.detail ?? show.columns, id });
  });
}

/** Keeps only the options that were given, under the body's field names. */
export function given(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}
