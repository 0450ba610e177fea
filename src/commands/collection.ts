// A plain collection of the API (the catalog's `collection: true`: list, get, create, update,
// delete): its entry in collections.ts says only what is its own, each verb's words and flags and
// how its records print; its name, noun and summary come from the catalog, its runs from
// shared/crud.ts and its description, loaded when one runs. index.ts declares every catalog
// resource without a command module of its own this way. Loaded for the resource named: commander only.
import type { Command } from 'commander';
import type { ResourceIdentity } from '../api/descriptions/catalog.js';
import type { VerbModule } from '../cli/action.js';
import type { Column } from '../cli/columns.js';
import { addVerb, deleteVerb, LIST_FLAGS, type FlagSpec, type VerbSpec } from './declare.js';

type Words = Pick<VerbSpec, 'description' | 'examples' | 'args'>;

/** What a plain collection's verbs say and print; `T` is its record. */
export interface CollectionCommand<T = never> {
  list: Words;
  get: Words;
  /** Its arguments and flags name the body fields they set (`field`). */
  create: Words & { flags?: Record<string, FlagSpec> };
  update: Words & { flags: Record<string, FlagSpec> };
  columns: Column<T>[];
  /** Columns for a single record; defaults to `columns`. */
  detail?: Column<T>[];
  /** How a record is named in a delete confirmation: `VIP (id 3, 12 contacts)`. */
  describe?: (record: T) => string;
}

/** The verbs of a collection, as shared/crud.ts runs them. */
export type CollectionVerb = 'list' | 'get' | 'create' | 'update' | 'remove';

/** A collection's entry in collections.ts (`labels: collectionCommand<Label>({...})`), typed by its record. */
export function collectionCommand<T>(command: CollectionCommand<T>): CollectionCommand<T> {
  return command;
}

/** `wsm <cli>` with its five verbs; `key` is the resource's key in the catalog and the descriptions. */
export function addCollection(
  program: Command,
  key: string,
  identity: ResourceIdentity & { cli: string },
  command: CollectionCommand<never>,
): void {
  const load = (verb: CollectionVerb) => async (): Promise<VerbModule> =>
    (await import('./shared/crud.js')).collectionVerb(key, command, verb);
  const parent = program.command(identity.cli).description(identity.summary ?? '');
  addVerb(parent, { name: 'list', ...command.list, flags: LIST_FLAGS, load: load('list') });
  addVerb(parent, { name: 'get', ...command.get, load: load('get') });
  addVerb(parent, { name: 'create', ...command.create, load: load('create') });
  addVerb(parent, { name: 'update', ...command.update, load: load('update') });
  deleteVerb(parent, identity.noun, identity.cli, load('remove'));
}
