// `wsm groups`: contact groups. Each verb's declaration (arguments, typed flags, examples) is
// here; its run is in ./groups/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { addCollection, collectionVerbs, type CollectionRuns } from './collection.js';

export const verbs = collectionVerbs({
  cli: 'groups',
  noun: 'contact group',
  load: (): Promise<CollectionRuns> => import('./groups/verbs.js'),
  list: {
    description: 'list contact groups with their contact counts',
    examples: ['wsm groups list', 'wsm groups list --all -q'],
  },
  get: {
    description: 'show one contact group',
    args: [['<id>', 'group id']],
    examples: ['wsm groups get 3', 'wsm groups get 3 -o json'],
  },
  create: {
    description: 'create a contact group',
    args: [['<name>', 'group name, unique in the workspace', 'name']],
    examples: ['wsm groups create "VIP customers"', 'wsm groups create leads -q'],
  },
  update: {
    description: 'rename a contact group',
    args: [['<id>', 'group id']],
    flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
    examples: ['wsm groups update 3 --name "Gold customers"'],
  },
});

export function registerGroups(program: Command): void {
  addCollection(program, verbs);
}
