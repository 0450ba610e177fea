// `wsm labels`: labels that categorise contacts. Each verb's declaration (arguments, typed flags,
// examples) is here; its run is in ./labels/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { addCollection, collectionVerbs, type CollectionRuns } from './collection.js';

export const verbs = collectionVerbs({
  cli: 'labels',
  noun: 'label',
  load: (): Promise<CollectionRuns> => import('./labels/verbs.js'),
  list: {
    description: 'list labels',
    examples: ['wsm labels list', 'wsm labels list --all -o csv'],
  },
  get: {
    description: 'show one label',
    args: [['<id>', 'label id']],
    examples: ['wsm labels get 4', 'wsm labels get 4 -o json'],
  },
  create: {
    description: 'create a label',
    args: [['<name>', 'label name, unique in the workspace', 'name']],
    flags: { color: { flags: '--color <hex>', description: 'colour such as #1a2b3c or #fc0', field: 'color' } },
    examples: ['wsm labels create urgent --color "#ff0000"', 'wsm labels create follow_up -q'],
  },
  update: {
    description: 'rename a label or change its colour (contacts keep the label)',
    args: [['<id>', 'label id']],
    flags: {
      name: { flags: '--name <name>', description: 'new name', field: 'name' },
      color: { flags: '--color <hex>', description: 'new colour such as #00aa00', field: 'color' },
    },
    examples: ['wsm labels update 4 --color "#00aa00"', 'wsm labels update 4 --name vip --color "#fc0"'],
  },
});

export function registerLabels(program: Command): void {
  addCollection(program, verbs);
}
