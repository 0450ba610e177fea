// `wsm groups`: contact groups. Declarations only; verbs live in ./groups/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions } from './declare.js';

export function registerGroups(program: Command): void {
  const groups = program.command('groups').description(SUMMARIES.groups);
  addVerb(groups, {
    name: 'list',
    description: 'list contact groups with their contact counts',
    configure: listOptions,
    examples: ['wsm groups list', 'wsm groups list --all -q'],
    load: () => import('./groups/list.js'),
  });
  addVerb(groups, {
    name: 'get',
    description: 'show one contact group',
    configure: (c) => c.argument('<id>', 'group id'),
    examples: ['wsm groups get 3', 'wsm groups get 3 -o json'],
    load: () => import('./groups/get.js'),
  });
  addVerb(groups, {
    name: 'create',
    description: 'create a contact group',
    configure: (c) => c.argument('<name>', 'group name, unique in the workspace'),
    examples: ['wsm groups create "VIP customers"', 'wsm groups create leads -q'],
    load: () => import('./groups/create.js'),
  });
  addVerb(groups, {
    name: 'update',
    description: 'rename a contact group',
    configure: (c) => c.argument('<id>', 'group id').requiredOption('--name <name>', 'new name'),
    examples: ['wsm groups update 3 --name "Gold customers"'],
    load: () => import('./groups/update.js'),
  });
  deleteVerb(groups, 'contact group', 'groups', () => import('./groups/delete.js'));
}
