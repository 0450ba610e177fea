// `wsm users update <id> [--name] [--email] [--timezone] [--active|--inactive] [--client|--no-client]
//  [--password [value]] [--avatar <file>] [--role <id>]`: a multipart form (api.md).
import { userUpdateBody, type UserUpdateBody } from '../../api/schemas/index.js';
import { UsageError } from '../../cli/errors.js';
import { showWritten } from '../shared/written.js';
import { checkLocal, checkUploadFile, nameBodyFields, parseId, requireSomething, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { update } from '../users.js';
import { resolvePassword } from './password.js';
import { USER_FLAGS, userDetailColumns } from './show.js';

/** A user avatar is an image like a contact's; 2 MB is the contact bound, reused here. */
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const run: VerbRun = typedRun<typeof update>(async (ctx, { args, opts }) => {
  const id = parseId(args[0], 'user id');
  if (opts.active === true && opts.inactive === true) throw new UsageError('--active and --inactive cannot be used together');
  const body: UserUpdateBody = {};
  for (const key of ['name', 'email', 'timezone'] as const) {
    const value = opts[key];
    if (value !== undefined) body[key] = value;
  }
  if (opts.active === true) body.status = true;
  if (opts.inactive === true) body.status = false;
  if (typeof opts.client === 'boolean') body.client = opts.client;
  if (opts.role !== undefined) body.role_id = parseId(opts.role, '--role');
  const { avatar } = opts;
  if (avatar !== undefined) await checkUploadFile(avatar, 'avatar', AVATAR_MAX_BYTES);
  const flags = ['--name', '--email', '--timezone', '--active', '--inactive', '--client', '--password', '--avatar', '--role'];
  requireSomething(body, flags, avatar !== undefined || opts.password !== undefined);
  // A password given as a value is checked with the rest; one to be asked for is asked only once
  // everything else is known to be valid, so an answer is never thrown away.
  const setPassword = (password: string | undefined) => {
    if (password === undefined) return;
    body.password = password;
    body.confirm_password = password;
  };
  if (typeof opts.password === 'string') setPassword(opts.password);
  nameBodyFields(ctx, body, USER_FLAGS);
  checkLocal(userUpdateBody, body, 'user');
  const client = await workspaceClient(ctx);
  if (opts.password === true) {
    setPassword(await resolvePassword(ctx, opts.password));
    checkLocal(userUpdateBody, body, 'user');
  }
  await showWritten(ctx, await client.users.update(id, body, { avatar }), { noun: 'user', columns: userDetailColumns, id });
});
