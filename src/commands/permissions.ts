// `wsm permissions`: each verb's declaration; its run lives in ./permissions/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const SET_FLAGS = {
  file: { flags: '--file <path>', description: 'read names from a file ("-" for stdin): one a line, or a JSON array' },
} as const;

export const set = verbSpec({
  name: 'set',
  description: 'replace the permissions given to partner workspaces you create from now on',
  args: [['[permission...]', 'permission names such as contacts.view']],
  flags: SET_FLAGS,
  examples: [
    'wsm permissions set contacts.view contacts.create templates.view',
    'wsm permissions set --file perms.txt',
    'wsm permissions list -q | grep -v users. | wsm permissions set',
  ],
  load: () => import('./permissions/set.js'),
});

export const list = verbSpec({
  name: 'list',
  description: 'list the permissions enabled in the workspace, one a row',
  examples: ['wsm permissions list', 'wsm permissions list -q > perms.txt', 'wsm permissions list -o json'],
  load: () => import('./permissions/list.js'),
});

export function registerPermissions(program: Command): void {
  const permissions = program.command('permissions').description(SUMMARIES.permissions);
  addVerb(permissions, list);
  addVerb(permissions, set);
}
