// The declarations of a plain collection's verbs (groups, fields, labels, roles): list, get,
// create, update and delete, each with its own words, arguments and typed flags; the runs are in
// the resource's verbs.ts (shared/crud.ts), loaded when one runs. Loaded at start-up: commander only.
import type { Command } from 'commander';
import type { VerbModule } from '../cli/action.js';
import { addVerb, deleteVerb, listOptions, verbSpec, type FlagSpec, type VerbSpec } from './declare.js';
import { SUMMARIES } from './summaries.js';

type Words = Pick<VerbSpec, 'description' | 'examples' | 'args'>;
/** The runs a collection's verbs.ts exports. */
export type CollectionRuns = Record<'list' | 'get' | 'create' | 'update' | 'remove', VerbModule['run']>;

export interface CollectionTexts<C extends Record<string, FlagSpec>, U extends Record<string, FlagSpec>> {
  cli: keyof typeof SUMMARIES;
  /** The noun of the delete verb's words (`delete a contact group`). */
  noun: string;
  /** The resource's verbs.ts, whose exports are the runs. */
  load: () => Promise<CollectionRuns>;
  list: Words;
  get: Words;
  create: Words & { flags?: C };
  update: Words & { flags: U };
}

/** The five verbs' declarations; `create` and `update` typed by their flags. */
export function collectionVerbs<const C extends Record<string, FlagSpec>, const U extends Record<string, FlagSpec>>(texts: CollectionTexts<C, U>) {
  const load = (verb: keyof CollectionRuns) => async (): Promise<VerbModule> => ({ run: (await texts.load())[verb] });
  return {
    cli: texts.cli,
    noun: texts.noun,
    list: verbSpec({ name: 'list', ...texts.list, configure: listOptions, load: load('list') }),
    get: verbSpec({ name: 'get', ...texts.get, load: load('get') }),
    create: verbSpec({ name: 'create', ...texts.create, load: load('create') }),
    update: verbSpec({ name: 'update', ...texts.update, load: load('update') }),
    remove: load('remove'),
  };
}

/** `wsm <cli>` with its five verbs. */
export function addCollection(program: Command, verbs: ReturnType<typeof collectionVerbs>): void {
  const parent = program.command(verbs.cli).description(SUMMARIES[verbs.cli]);
  for (const spec of [verbs.list, verbs.get, verbs.create, verbs.update]) addVerb(parent, spec);
  deleteVerb(parent, verbs.noun, verbs.cli, verbs.remove);
}
