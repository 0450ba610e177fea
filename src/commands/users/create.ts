// `wsm users create --name --email --password [value] --role <id> [--timezone]` (extension endpoint)
import type { Written } from '../../api/answers.js';
import { checkBody } from '../../api/resources/base.js';
import { userCreateBody, type User, type UserCreateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { showWritten } from '../shared/written.js';
import { fieldLabels, parseId, withFieldNames, workspaceClient } from '../shared/verb.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { sendingClient } from '../shared/sending-client.js';
import type { CREATE_FLAGS } from '../users.js';
import { resolvePassword } from './password.js';
import { USER_FLAGS, userDetailColumns } from './show.js';

export interface CreateUserOptions {
  body: UserCreateBody;
  /** `--password` without a value: asked on a terminal, once everything else is known to be valid. */
  askPassword: boolean;
}

export function parse({ opts }: CommandLine<typeof CREATE_FLAGS>): CreateUserOptions {
  const body: UserCreateBody = {
    name: opts.name ?? '',
    email: opts.email ?? '',
    password: '',
    role_id: parseId(opts.role, '--role'),
  };
  if (opts.timezone !== undefined) body.timezone = opts.timezone;
  const askPassword = opts.password === true;
  if (!askPassword) body.password = opts.password ?? '';
  return { body, askPassword };
}

export async function run(ctx: Context, { body: given, askPassword }: CreateUserOptions): Promise<Written<User>> {
  const body = { ...given };
  return withFieldNames(
    () => fieldLabels(body, USER_FLAGS),
    async () => {
      // Refused before the password is asked for; the client checks the whole body as it sends it.
      if (askPassword) checkBody(userCreateBody.omit({ password: true }), body, 'user');
      // Before a password is asked for, the login and workspace must be good; otherwise the client's check comes first.
      const client = askPassword ? await workspaceClient(ctx) : await sendingClient(ctx);
      if (askPassword) body.password = (await resolvePassword(ctx, true)) ?? '';
      return journaledWrite(ctx, client, { resource: 'users', operation: 'create', body }, () => client.users.create(body));
    },
  );
}

export async function render(ctx: Context, answer: Written<User>): Promise<void> {
  await showWritten(ctx, answer, { noun: 'user', columns: userDetailColumns, describe: (user) => ` (${user.email})` });
}
