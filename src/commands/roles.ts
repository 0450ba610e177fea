// `wsm roles`: the permissions a member has. Each verb's declaration (arguments, typed flags,
// examples) is here; its run is in ./roles/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { addCollection, collectionVerbs, type CollectionRuns } from './collection.js';

export const verbs = collectionVerbs({
  cli: 'roles',
  noun: 'role',
  load: (): Promise<CollectionRuns> => import('./roles/verbs.js'),
  list: {
    description: 'list roles',
    examples: ['wsm roles list', 'wsm roles list -o json'],
  },
  get: {
    description: 'show one role with its permissions',
    args: [['<id>', 'role id']],
    examples: ['wsm roles get 2', 'wsm roles get 2 -o json | jq -r ".permissions[]"'],
  },
  create: {
    description: 'create a role',
    args: [['<name>', 'role name, unique in the workspace', 'name']],
    flags: { permission: { flags: '--permission <name>', description: 'permission such as contacts.view; repeat for several', repeatable: true, field: 'permissions' } },
    examples: ['wsm roles create agent', 'wsm roles create viewer --permission contacts.view --permission templates.view'],
  },
  update: {
    description: 'rename a role or replace its permissions',
    args: [['<id>', 'role id']],
    flags: {
      name: { flags: '--name <name>', description: 'new name', field: 'name' },
      permission: { flags: '--permission <name>', description: 'permission; repeat for several (replaces the whole list)', repeatable: true, field: 'permissions' },
    },
    examples: ['wsm roles update 2 --name supervisor', 'wsm roles update 2 --permission contacts.view --permission contacts.update'],
  },
});

export function registerRoles(program: Command): void {
  addCollection(program, verbs);
}
