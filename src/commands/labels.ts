// `wsm labels`: labels that categorise contacts. Declarations only; verbs live in ./labels/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions } from './declare.js';

export function registerLabels(program: Command): void {
  const labels = program.command('labels').description(SUMMARIES.labels);
  addVerb(labels, {
    name: 'list',
    description: 'list labels',
    configure: listOptions,
    examples: ['wsm labels list', 'wsm labels list --all -o csv'],
    load: () => import('./labels/list.js'),
  });
  addVerb(labels, {
    name: 'get',
    description: 'show one label',
    configure: (c) => c.argument('<id>', 'label id'),
    examples: ['wsm labels get 4', 'wsm labels get 4 -o json'],
    load: () => import('./labels/get.js'),
  });
  addVerb(labels, {
    name: 'create',
    description: 'create a label',
    configure: (c) => c.argument('<name>', 'label name, unique in the workspace').option('--color <hex>', 'colour such as #1a2b3c or #fc0'),
    examples: ['wsm labels create urgent --color "#ff0000"', 'wsm labels create follow_up -q'],
    load: () => import('./labels/create.js'),
  });
  addVerb(labels, {
    name: 'update',
    description: 'rename a label or change its colour (contacts keep the label)',
    configure: (c) => c.argument('<id>', 'label id').option('--name <name>', 'new name').option('--color <hex>', 'new colour such as #00aa00'),
    examples: ['wsm labels update 4 --color "#00aa00"', 'wsm labels update 4 --name vip --color "#fc0"'],
    load: () => import('./labels/update.js'),
  });
  deleteVerb(labels, 'label', 'labels', () => import('./labels/delete.js'));
}
