// `wsm fields`: custom contact fields. Declarations only; verbs live in ./fields/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions } from './declare.js';

export function registerFields(program: Command): void {
  const fields = program.command('fields').description(SUMMARIES.fields);
  addVerb(fields, {
    name: 'list',
    description: 'list contact fields',
    configure: listOptions,
    examples: ['wsm fields list', 'wsm fields list --all -q'],
    load: () => import('./fields/list.js'),
  });
  addVerb(fields, {
    name: 'get',
    description: 'show one contact field',
    configure: (c) => c.argument('<id>', 'field id'),
    examples: ['wsm fields get 2'],
    load: () => import('./fields/get.js'),
  });
  addVerb(fields, {
    name: 'create',
    description: 'create a contact field',
    configure: (c) => c.argument('<name>', 'field name: lowercase letters and underscores'),
    examples: ['wsm fields create city', 'wsm fields create loyalty_tier -q'],
    load: () => import('./fields/create.js'),
  });
  addVerb(fields, {
    name: 'update',
    description: 'rename a contact field',
    configure: (c) => c.argument('<id>', 'field id').requiredOption('--name <name>', 'new name'),
    examples: ['wsm fields update 2 --name home_city'],
    load: () => import('./fields/update.js'),
  });
  deleteVerb(fields, 'contact field', 'fields', () => import('./fields/delete.js'));
}
