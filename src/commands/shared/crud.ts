// Verb bodies for the plain collections (the catalog's `collection: true`): the resource's entry in
// collections.ts gives its columns and its verbs' arguments and flags; the rest comes from its
// description (the client resource, the noun, the body schemas) and the flags' body fields. Each
// write is journaled (journal/resource-change.ts), so `wsm undo` can take it back.
import type { z } from 'zod';
import type { WsmClient } from '../../api/client.js';
import { CATALOG, descriptionOf, type ResourceKey } from '../../api/descriptions/catalog.js';
import type { ResourceDescription } from '../../api/descriptions/index.js';
import type { CrudResource } from '../../api/resources/crud.js';
import type { Written } from '../../api/answers.js';
import type { Verb, VerbModule } from '../../cli/action.js';
import type { Column } from '../../cli/columns.js';
import type { VerbSpec } from '../declare.js';
import type { CollectionCommand, CollectionVerb } from '../collection.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { deleteVerb, type Deleted } from './delete.js';
import { listing, parsePageFlags, renderListing, type Listing, type PageFlags } from './list.js';
import { sendingClient } from './sending-client.js';
import { fieldLabels, parseId, requireSomething, withFieldNames, workspaceClient } from './verb.js';
import { showWritten } from './written.js';

// The body schemas differ per resource; the client checks each body against its own before sending.
type AnyCrud<T> = CrudResource<T, z.ZodType, z.ZodType>;

interface Presentation<T> {
  /** The resource's description: its client property, noun and body schemas. */
  resource: ResourceDescription;
  columns: Column<T>[];
  /** Columns for a single record; defaults to `columns`. */
  detail?: Column<T>[];
  /** How a record is named in a delete confirmation: `VIP (id 3, 12 contacts)`. */
  describe?: (record: T) => string;
}

const collection = <T>(client: WsmClient, show: Presentation<T>) => client[show.resource.key as 'labels'] as unknown as AnyCrud<T>;

/** The arguments and flags of a create or update: each may name the body field it sets. */
type DeclaredBody = Pick<VerbSpec, 'args' | 'flags'>;

/** The body a create or update sends: each given argument and flag under its body field. */
function bodyOf(spec: DeclaredBody, args: string[], opts: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  (spec.args ?? []).forEach(([, , field], i) => field !== undefined && args[i] !== undefined && (body[field] = args[i]));
  for (const [key, flag] of Object.entries(spec.flags ?? {}))
    if (flag.field !== undefined && opts[key] !== undefined) body[flag.field] = opts[key];
  return body;
}

/** Body field -> the flag that sets it, for a 422 to name the flag. */
function fieldFlags(spec: DeclaredBody): Record<string, string> {
  return Object.fromEntries(
    Object.values(spec.flags ?? {}).flatMap((flag) => (flag.field === undefined ? [] : [[flag.field, flag.flags.split(' ')[0]]])),
  );
}

/** The delete verb of a plain collection: the confirmation reads and names the record. */
function deleteCollectionVerb<T extends object>(show: Presentation<T>): Verb<number, Deleted> {
  return deleteVerb<T>(show.resource.key as ResourceKey, (client, id) => collection(client, show).delete(id), {
    read: async (client, id) => (await collection(client, show).get(id)).data,
    describe: show.describe,
  });
}

function listVerb<T extends object>(show: Presentation<T>): Verb<PageFlags, Listing<T>> {
  return {
    parse: ({ opts }, ctx) => parsePageFlags(ctx, opts),
    async run(ctx, flags) {
      const resource = collection(await workspaceClient(ctx), show);
      return listing(flags, { page: (q) => resource.list(q), pages: (q, s) => resource.list(q).pages(s) }, {});
    },
    render: (ctx, records) => renderListing(ctx, records, { columns: show.columns, noun: `${show.resource.noun}s` }),
  };
}

function getVerb<T extends object>(show: Presentation<T>): Verb<number, T> {
  return {
    parse: ({ args }) => parseId(args[0], `${show.resource.noun} id`),
    run: async (ctx, id) => (await collection(await workspaceClient(ctx), show).get(id)).data,
    render: (ctx, record) => ctx.output.record(record, { columns: show.detail ?? show.columns }),
  };
}

/** What a create or update sends: the record's id for an update, and the body its arguments and flags made. */
export interface WriteOptions {
  id?: number;
  body: Record<string, unknown>;
}

/** The body comes from the declaration's arguments and flags; the client checks it before anything is sent. */
function createVerb<T extends object>(show: Presentation<T>, spec: DeclaredBody): Verb<WriteOptions, Written<T>> {
  return {
    parse: ({ args, opts }) => ({ body: bodyOf(spec, args, opts) }),
    run: (ctx, { body }) =>
      withFieldNames(
        () => fieldLabels(body, fieldFlags(spec)),
        async () => {
          const client = await sendingClient(ctx);
          const write = { resource: show.resource.key as ResourceKey, operation: 'create', body };
          return journaledWrite(ctx, client, write, () => collection(client, show).create(body));
        },
      ),
    render: async (ctx, answer) =>
      void (await showWritten(ctx, answer, { noun: show.resource.noun, columns: show.detail ?? show.columns })),
  };
}

/** An update with none of the declaration's body flags is refused before anything is sent. */
function updateVerb<T extends object>(show: Presentation<T>, spec: DeclaredBody): Verb<Required<WriteOptions>, Written<T>> {
  return {
    parse({ args, opts }) {
      const id = parseId(args[0], `${show.resource.noun} id`);
      const body = bodyOf(spec, [], opts);
      requireSomething(body, Object.values(fieldFlags(spec)));
      return { id, body };
    },
    run: (ctx, { id, body }) =>
      withFieldNames(
        () => fieldLabels(body, fieldFlags(spec)),
        async () => {
          const client = await sendingClient(ctx);
          const write = { resource: show.resource.key as ResourceKey, operation: 'update', id, body };
          return journaledWrite(ctx, client, write, () => collection(client, show).update(id, body));
        },
      ),
    render: async (ctx, answer, { id }) =>
      void (await showWritten(ctx, answer, { noun: show.resource.noun, columns: show.detail ?? show.columns, id })),
  };
}

/** One verb's run of a plain collection: `key` names its description, `command` how its records print and what its flags set. */
export async function collectionVerb(key: string, command: CollectionCommand<never>, name: CollectionVerb): Promise<VerbModule> {
  // Only this resource's description (and its zod schemas) is loaded, not every resource's.
  if (!(key in CATALOG)) throw new TypeError(`no description of "${key}"`);
  const resource: ResourceDescription = await descriptionOf(key as ResourceKey);
  const show = { resource, columns: command.columns, detail: command.detail, describe: command.describe } as Presentation<object>;
  if (name === 'list') return listVerb(show);
  if (name === 'get') return getVerb(show);
  if (name === 'create') return createVerb(show, command.create);
  if (name === 'update') return updateVerb(show, command.update);
  return deleteCollectionVerb(show);
}
