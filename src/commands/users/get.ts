// `wsm users get <id>` (extension endpoint)
import type { User } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { parseId, workspaceClient } from '../shared/verb.js';
import { userDetailColumns } from './show.js';

export function parse({ args }: CommandLine): number {
  return parseId(args[0], 'user id');
}

export async function run(ctx: Context, id: number): Promise<User> {
  const client = await workspaceClient(ctx);
  return (await client.users.get(id)).data;
}

export function render(ctx: Context, user: User): Promise<void> {
  return ctx.output.record(user, { columns: userDetailColumns });
}
