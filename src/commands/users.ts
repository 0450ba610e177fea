// `wsm users`: each verb's declaration; its run lives in ./users/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, LIST_FLAGS, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list users',
  flags: LIST_FLAGS,
  examples: ['wsm users list', 'wsm users list --all -o csv'],
  load: () => import('./users/list.js'),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one user',
  args: [['<id>', 'user id']],
  examples: ['wsm users get 7', 'wsm users get 7 -o json'],
  load: () => import('./users/get.js'),
});

export const CREATE_FLAGS = {
  name: { flags: '--name <name>', description: 'full name', required: true },
  email: { flags: '--email <email>', description: 'e-mail address (the login)', required: true },
  password: {
    flags: '--password [password]',
    description: 'at least 8 characters; without a value it is asked twice on a terminal',
    required: true,
  },
  role: { flags: '--role <id>', description: 'role id in this workspace', required: true },
  timezone: { flags: '--timezone <zone>', description: 'IANA time zone such as Europe/Lisbon' },
} as const;

export const create = verbSpec({
  name: 'create',
  description: 'create a user with a role in the workspace (embedded server extension)',
  flags: CREATE_FLAGS,
  examples: [
    'wsm users create --name "Ann Lee" --email ann@example.com --password --role 2',
    'wsm users create --name Bot --email bot@example.com --password "$BOT_PASSWORD" --role 3 -q',
  ],
  load: () => import('./users/create.js'),
});

export const UPDATE_FLAGS = {
  name: { flags: '--name <name>', description: 'full name' },
  email: { flags: '--email <email>', description: 'e-mail address' },
  timezone: { flags: '--timezone <zone>', description: 'IANA time zone such as Europe/Lisbon' },
  active: { flags: '--active', description: 'reactivate the user in this workspace' },
  inactive: { flags: '--inactive', description: 'deactivate the user in this workspace only' },
  client: { flags: '--client', description: 'mark the user as a client', negate: 'mark the user as not a client' },
  password: { flags: '--password [password]', description: 'new password; without a value it is asked twice on a terminal' },
  avatar: { flags: '--avatar <file>', description: 'profile picture (image file)' },
  role: { flags: '--role <id>', description: "change the user's role in this workspace" },
} as const;

export const update = verbSpec({
  name: 'update',
  description: 'update a user (sent as a multipart form)',
  args: [['<id>', 'user id']],
  flags: UPDATE_FLAGS,
  examples: [
    'wsm users update 7 --timezone Europe/Lisbon --inactive',
    'wsm users update 7 --password',
    'wsm users update 7 --avatar me.png',
  ],
  load: () => import('./users/update.js'),
});

export function registerUsers(program: Command): void {
  const users = program.command('users').description(SUMMARIES.users);
  for (const spec of [list, get, create, update]) addVerb(users, spec);
}
