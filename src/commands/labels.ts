// `wsm labels`: labels that categorise contacts. Each verb's declaration (arguments, typed flags,
// examples) is here; its run is in ./labels/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list labels',
  configure: listOptions,
  examples: ['wsm labels list', 'wsm labels list --all -o csv'],
  load: async () => ({ run: (await import('./labels/verbs.js')).list }),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one label',
  args: [['<id>', 'label id']],
  examples: ['wsm labels get 4', 'wsm labels get 4 -o json'],
  load: async () => ({ run: (await import('./labels/verbs.js')).get }),
});

export const create = verbSpec({
  name: 'create',
  description: 'create a label',
  args: [['<name>', 'label name, unique in the workspace', 'name']],
  flags: { color: { flags: '--color <hex>', description: 'colour such as #1a2b3c or #fc0', field: 'color' } },
  examples: ['wsm labels create urgent --color "#ff0000"', 'wsm labels create follow_up -q'],
  load: async () => ({ run: (await import('./labels/verbs.js')).create }),
});

export const update = verbSpec({
  name: 'update',
  description: 'rename a label or change its colour (contacts keep the label)',
  args: [['<id>', 'label id']],
  flags: {
    name: { flags: '--name <name>', description: 'new name', field: 'name' },
    color: { flags: '--color <hex>', description: 'new colour such as #00aa00', field: 'color' },
  },
  examples: ['wsm labels update 4 --color "#00aa00"', 'wsm labels update 4 --name vip --color "#fc0"'],
  load: async () => ({ run: (await import('./labels/verbs.js')).update }),
});

export function registerLabels(program: Command): void {
  const labels = program.command('labels').description(SUMMARIES.labels);
  for (const spec of [list, get, create, update]) addVerb(labels, spec);
  deleteVerb(labels, 'label', 'labels', async () => ({ run: (await import('./labels/verbs.js')).remove }));
}
