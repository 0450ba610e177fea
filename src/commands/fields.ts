// `wsm fields`: custom contact fields. Each verb's declaration (arguments, typed flags, examples)
// is here; its run is in ./fields/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { addCollection, collectionVerbs, type CollectionRuns } from './collection.js';

export const verbs = collectionVerbs({
  cli: 'fields',
  noun: 'contact field',
  load: (): Promise<CollectionRuns> => import('./fields/verbs.js'),
  list: {
    description: 'list contact fields',
    examples: ['wsm fields list', 'wsm fields list --all -q'],
  },
  get: {
    description: 'show one contact field',
    args: [['<id>', 'field id']],
    examples: ['wsm fields get 2'],
  },
  create: {
    description: 'create a contact field',
    args: [['<name>', 'field name: lowercase letters and underscores', 'name']],
    examples: ['wsm fields create city', 'wsm fields create loyalty_tier -q'],
  },
  update: {
    description: 'rename a contact field',
    args: [['<id>', 'field id']],
    flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
    examples: ['wsm fields update 2 --name home_city'],
  },
});

export function registerFields(program: Command): void {
  addCollection(program, verbs);
}
