// `wsm groups`: contact groups. Each verb's declaration (arguments, typed flags, examples) is
// here; its run is in ./groups/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list contact groups with their contact counts',
  configure: listOptions,
  examples: ['wsm groups list', 'wsm groups list --all -q'],
  load: async () => ({ run: (await import('./groups/verbs.js')).list }),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one contact group',
  args: [['<id>', 'group id']],
  examples: ['wsm groups get 3', 'wsm groups get 3 -o json'],
  load: async () => ({ run: (await import('./groups/verbs.js')).get }),
});

export const create = verbSpec({
  name: 'create',
  description: 'create a contact group',
  args: [['<name>', 'group name, unique in the workspace', 'name']],
  examples: ['wsm groups create "VIP customers"', 'wsm groups create leads -q'],
  load: async () => ({ run: (await import('./groups/verbs.js')).create }),
});

export const update = verbSpec({
  name: 'update',
  description: 'rename a contact group',
  args: [['<id>', 'group id']],
  flags: { name: { flags: '--name <name>', description: 'new name', required: true, field: 'name' } },
  examples: ['wsm groups update 3 --name "Gold customers"'],
  load: async () => ({ run: (await import('./groups/verbs.js')).update }),
});

export function registerGroups(program: Command): void {
  const groups = program.command('groups').description(SUMMARIES.groups);
  for (const spec of [list, get, create, update]) addVerb(groups, spec);
  deleteVerb(groups, 'contact group', 'groups', async () => ({ run: (await import('./groups/verbs.js')).remove }));
}
