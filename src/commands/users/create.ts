// `wsm users create --name --email --password [value] --role <id> [--timezone]` (extension endpoint)
import { userCreateBody, type UserCreateBody } from '../../api/schemas/index.js';
import { showWritten } from '../shared/written.js';
import { checkLocal, nameBodyFields, parseId, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { create } from '../users.js';
import { resolvePassword } from './password.js';
import { USER_FLAGS, userDetailColumns } from './show.js';

export const run: VerbRun = typedRun<typeof create>(async (ctx, { opts }) => {
  const body: UserCreateBody = {
    name: opts.name ?? '',
    email: opts.email ?? '',
    password: '',
    role_id: parseId(opts.role, '--role'),
  };
  if (opts.timezone !== undefined) body.timezone = opts.timezone;
  // A password to be asked for is asked only once everything else is known to be valid.
  const ask = opts.password === true;
  if (!ask) body.password = opts.password ?? '';
  nameBodyFields(ctx, body, USER_FLAGS);
  checkLocal(ask ? userCreateBody.omit({ password: true }) : userCreateBody, body, 'user');
  const client = await workspaceClient(ctx);
  if (ask) {
    body.password = (await resolvePassword(ctx, opts.password)) ?? '';
    checkLocal(userCreateBody, body, 'user');
  }
  await showWritten(ctx, await client.users.create(body), { noun: 'user', columns: userDetailColumns, describe: (user) => ` (${user.email})` });
});
