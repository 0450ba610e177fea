// `wsm users update <id> [--name] [--email] [--timezone] [--active|--inactive] [--client|--no-client]
//  [--password [value]] [--avatar <file>] [--role <id>]`: a multipart form (the published API).
import type { Written } from '../../api/answers.js';
import { checkBody } from '../../api/resources/base.js';
import { userUpdateBody, type User, type UserUpdateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';
import { showWritten } from '../shared/written.js';
import { checkUploadFile, fieldLabels, parseId, requireSomething, withFieldNames, workspaceClient } from '../shared/verb.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { sendingClient } from '../shared/sending-client.js';
import type { UPDATE_FLAGS } from '../users.js';
import { resolvePassword } from './password.js';
import { USER_FLAGS, userDetailColumns } from './show.js';

/** A user avatar is an image like a contact's; 2 MB is the contact bound, reused here. */
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export interface UpdateUserOptions {
  id: number;
  /** The fields to change; a password given as a value is in it (as password and confirm_password). */
  body: UserUpdateBody;
  /** An image file to upload as the avatar. */
  avatar?: string;
  /** `--password` without a value: asked on a terminal, once everything else is known to be valid. */
  askPassword: boolean;
}

function withPassword(body: UserUpdateBody, password: string): UserUpdateBody {
  return { ...body, password, confirm_password: password };
}

export function parse({ args, opts }: CommandLine<typeof UPDATE_FLAGS>): UpdateUserOptions {
  const id = parseId(args[0], 'user id');
  if (opts.active === true && opts.inactive === true) throw new UsageError('--active and --inactive cannot be used together');
  let body: UserUpdateBody = {};
  for (const key of ['name', 'email', 'timezone'] as const) {
    const value = opts[key];
    if (value !== undefined) body[key] = value;
  }
  if (opts.active === true) body.status = true;
  if (opts.inactive === true) body.status = false;
  if (typeof opts.client === 'boolean') body.client = opts.client;
  if (opts.role !== undefined) body.role_id = parseId(opts.role, '--role');
  const flags = ['--name', '--email', '--timezone', '--active', '--inactive', '--client', '--password', '--avatar', '--role'];
  requireSomething(body, flags, opts.avatar !== undefined || opts.password !== undefined);
  if (typeof opts.password === 'string') body = withPassword(body, opts.password);
  return { id, body, ...(opts.avatar !== undefined ? { avatar: opts.avatar } : {}), askPassword: opts.password === true };
}

export async function run(ctx: Context, options: UpdateUserOptions): Promise<Written<User>> {
  const { id, avatar, askPassword } = options;
  if (avatar !== undefined) await checkUploadFile(ctx, avatar, 'avatar', AVATAR_MAX_BYTES);
  let body = options.body;
  return withFieldNames(
    () => fieldLabels(body, USER_FLAGS),
    async () => {
      // Refused before the password is asked for; the client checks the whole body as it sends it.
      if (askPassword) checkBody(userUpdateBody, body, 'user');
      // Before a password is asked for, the login and workspace must be good; otherwise the client's check comes first.
      const client = askPassword ? await workspaceClient(ctx) : await sendingClient(ctx);
      if (askPassword) {
        const password = await resolvePassword(ctx, true);
        if (password !== undefined) body = withPassword(body, password);
      }
      const write = { resource: 'users' as const, operation: 'update', id, body };
      return journaledWrite(ctx, client, write, () => client.users.update(id, body, { avatar }), avatar !== undefined ? ['avatar'] : []);
    },
  );
}

export async function render(ctx: Context, answer: Written<User>, { id }: UpdateUserOptions): Promise<void> {
  await showWritten(ctx, answer, { noun: 'user', columns: userDetailColumns, id });
}
