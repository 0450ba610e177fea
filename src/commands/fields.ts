// `wsm fields`: custom contact fields. Each verb's declaration (arguments, typed flags, examples)
// is here; its run is in ./fields/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list contact fields',
  configure: listOptions,
  examples: ['wsm fields list', 'wsm fields list --all -q'],
  load: async () => ({ run: (await import('./fields/verbs.js')).list }),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one contact field',
  args: [['<id>', 'field id']],
  examples: ['wsm fields get 2'],
  load: async () => ({ run: (await import('./fields/verbs.js')).get }),
});

export const create = verbSpec({
  name: 'create',
  description: 'create a contact field',
  args: [['<name>', 'field name: lowercase letters and underscores', 'name']],
  examples: ['wsm fields create city', 'wsm fields create loyalty_tier -q'],
  load: async () => ({ run: (await import('./fields/verbs.js')).create }),
});

export const update = verbSpec({
  name: 'update',
  description: 'rename a contact field',
  args: [['<id>', 'field id']],
  flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
  examples: ['wsm fields update 2 --name home_city'],
  load: async () => ({ run: (await import('./fields/verbs.js')).update }),
});

export function registerFields(program: Command): void {
  const fields = program.command('fields').description(SUMMARIES.fields);
  for (const spec of [list, get, create, update]) addVerb(fields, spec);
  deleteVerb(fields, 'contact field', 'fields', async () => ({ run: (await import('./fields/verbs.js')).remove }));
}
