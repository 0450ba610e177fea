// `wsm history`: declarations only; each verb lives in ./history/<verb>.ts and loads when run.
import type { Command } from 'commander';
import type { Selectable } from '../cli/action.js';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

const changeFields: Selectable = {
  fields: async () => [
    'id',
    'when',
    'profile',
    'base_url',
    'workspace',
    'command',
    'summary',
    'records',
    'notes',
    'ended',
    'failed',
    'undoes',
    'pid',
  ],
};

export const list = verbSpec({
  name: 'list',
  description: 'list the changes kept on this machine, newest first (the default of `wsm history`)',
  examples: ['wsm history', 'wsm history list -o json', "wsm history --jq '.[0].id'"],
  load: () => import('./history/list.js'),
  selection: changeFields,
  isDefault: true,
});

export const show = verbSpec({
  name: 'show',
  description:
    'show one change as a plan: each record, its values before -> after; a change another wsm is still writing is shown as far as it goes',
  args: [['<change>', 'the change id from `wsm history`, or last']],
  examples: ['wsm history show last', 'wsm history show 20261128-171522-483 -o json'],
  load: () => import('./history/show.js'),
});

export const clear = verbSpec({
  name: 'clear',
  description:
    'forget every change kept on this machine but those another wsm is still writing (asks on a terminal; --yes otherwise); nothing can be undone after',
  examples: ['wsm history clear', 'wsm history clear --yes'],
  load: () => import('./history/clear.js'),
});

export function registerHistory(program: Command): void {
  const history = program.command('history').description(SUMMARIES.history);
  addVerb(history, list);
  addVerb(history, show);
  addVerb(history, clear);
}
