// `wsm roles`: the permissions a member has. Each verb's declaration (arguments, typed flags,
// examples) is here; its run is in ./roles/verbs.ts, loaded when it runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, listOptions, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list roles',
  configure: listOptions,
  examples: ['wsm roles list', 'wsm roles list -o json'],
  load: async () => ({ run: (await import('./roles/verbs.js')).list }),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one role with its permissions',
  args: [['<id>', 'role id']],
  examples: ['wsm roles get 2', 'wsm roles get 2 -o json | jq -r ".permissions[]"'],
  load: async () => ({ run: (await import('./roles/verbs.js')).get }),
});

export const create = verbSpec({
  name: 'create',
  description: 'create a role',
  args: [['<name>', 'role name, unique in the workspace', 'name']],
  flags: { permission: { flags: '--permission <name>', description: 'permission such as contacts.view; repeat for several', repeatable: true, field: 'permissions' } },
  examples: ['wsm roles create agent', 'wsm roles create viewer --permission contacts.view --permission templates.view'],
  load: async () => ({ run: (await import('./roles/verbs.js')).create }),
});

export const update = verbSpec({
  name: 'update',
  description: 'rename a role or replace its permissions',
  args: [['<id>', 'role id']],
  flags: {
    name: { flags: '--name <name>', description: 'new name', field: 'name' },
    permission: { flags: '--permission <name>', description: 'permission; repeat for several (replaces the whole list)', repeatable: true, field: 'permissions' },
  },
  examples: ['wsm roles update 2 --name supervisor', 'wsm roles update 2 --permission contacts.view --permission contacts.update'],
  load: async () => ({ run: (await import('./roles/verbs.js')).update }),
});

export function registerRoles(program: Command): void {
  const roles = program.command('roles').description(SUMMARIES.roles);
  for (const spec of [list, get, create, update]) addVerb(roles, spec);
  deleteVerb(roles, 'role', 'roles', async () => ({ run: (await import('./roles/verbs.js')).remove }));
}
