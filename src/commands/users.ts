// `wsm users`: declarations only; verbs live in ./users/<verb>.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, listOptions } from './declare.js';

export function registerUsers(program: Command): void {
  const users = program.command('users').description(SUMMARIES.users);
  addVerb(users, {
    name: 'list',
    description: 'list users',
    configure: listOptions,
    examples: ['wsm users list', 'wsm users list --all -o csv'],
    load: () => import('./users/list.js'),
  });
  addVerb(users, {
    name: 'get',
    description: 'show one user',
    configure: (c) => c.argument('<id>', 'user id'),
    examples: ['wsm users get 7', 'wsm users get 7 -o json'],
    load: () => import('./users/get.js'),
  });
  addVerb(users, {
    name: 'create',
    description: 'create a user with a role in the workspace (embedded server extension)',
    configure: (c) =>
      c
        .requiredOption('--name <name>', 'full name')
        .requiredOption('--email <email>', 'e-mail address (the login)')
        .requiredOption('--password [password]', 'at least 8 characters; without a value it is asked twice on a terminal')
        .requiredOption('--role <id>', 'role id in this workspace')
        .option('--timezone <zone>', 'IANA time zone such as Europe/Lisbon'),
    examples: ['wsm users create --name "Ann Lee" --email ann@example.com --password --role 2', 'wsm users create --name Bot --email bot@example.com --password "$BOT_PASSWORD" --role 3 -q'],
    load: () => import('./users/create.js'),
  });
  addVerb(users, {
    name: 'update',
    description: 'update a user (sent as a multipart form)',
    configure: (c) =>
      c
        .argument('<id>', 'user id')
        .option('--name <name>', 'full name')
        .option('--email <email>', 'e-mail address')
        .option('--timezone <zone>', 'IANA time zone such as Europe/Lisbon')
        .option('--active', 'reactivate the user in this workspace')
        .option('--inactive', 'deactivate the user in this workspace only')
        .option('--client', 'mark the user as a client')
        .option('--no-client', 'mark the user as not a client')
        .option('--password [password]', 'new password; without a value it is asked twice on a terminal')
        .option('--avatar <file>', 'profile picture (image file)')
        .option('--role <id>', "change the user's role in this workspace"),
    examples: ['wsm users update 7 --timezone Europe/Lisbon --inactive', 'wsm users update 7 --password', 'wsm users update 7 --avatar me.png'],
    load: () => import('./users/update.js'),
  });
}
