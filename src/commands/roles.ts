// `wsm roles`: roles and their permissions. Declarations only; verbs live in ./roles/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions, repeatable } from './declare.js';

export function registerRoles(program: Command): void {
  const roles = program.command('roles').description(SUMMARIES.roles);
  addVerb(roles, {
    name: 'list',
    description: 'list roles',
    configure: listOptions,
    examples: ['wsm roles list', 'wsm roles list -o json'],
    load: () => import('./roles/list.js'),
  });
  addVerb(roles, {
    name: 'get',
    description: 'show one role with its permissions',
    configure: (c) => c.argument('<id>', 'role id'),
    examples: ['wsm roles get 2', 'wsm roles get 2 -o json | jq -r ".permissions[]"'],
    load: () => import('./roles/get.js'),
  });
  addVerb(roles, {
    name: 'create',
    description: 'create a role',
    configure: (c) =>
      c.argument('<name>', 'role name, unique in the workspace').option('--permission <name>', 'permission such as contacts.view; repeat for several', repeatable),
    examples: ['wsm roles create agent', 'wsm roles create viewer --permission contacts.view --permission templates.view'],
    load: () => import('./roles/create.js'),
  });
  addVerb(roles, {
    name: 'update',
    description: 'rename a role or replace its permissions',
    configure: (c) =>
      c
        .argument('<id>', 'role id')
        .option('--name <name>', 'new name')
        .option('--permission <name>', 'permission; repeat for several (replaces the whole list)', repeatable),
    examples: ['wsm roles update 2 --name supervisor', 'wsm roles update 2 --permission contacts.view --permission contacts.update'],
    load: () => import('./roles/update.js'),
  });
  deleteVerb(roles, 'role', 'roles', () => import('./roles/delete.js'));
}
