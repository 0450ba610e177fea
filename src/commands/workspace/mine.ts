// The workspaces the token's user belongs to, from GET /me (an extension), and the terminal
// picker `workspace use` offers; `auth login` can offer the same picker after a login.
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import { fetchMe } from '../auth/me.js';

export interface MyWorkspace {
  id: string;
  name: string;
  current: boolean;
}

/** Said when the server has no /me: the one line that replaces a listing. */
export const NO_ME =
  'this server does not support listing your workspaces (it has no GET /me): pass the workspace id with -w <uuid> or `wsm profile set workspace <uuid>`';

/** The user's workspaces, the one in use marked; undefined when the server has no /me. */
export async function myWorkspaces(client: WsmClient, current: string | undefined): Promise<MyWorkspace[] | undefined> {
  const me = await fetchMe(client);
  if (me === undefined) return undefined;
  return (me.workspaces ?? []).map((w) => ({ id: w.id, name: w.name, current: w.id.toLowerCase() === current?.toLowerCase() }));
}

/** Like myWorkspaces, but a server without /me is an error saying so (exit 1). */
export async function requireWorkspaces(client: WsmClient, current: string | undefined): Promise<MyWorkspace[]> {
  const list = await myWorkspaces(client, current);
  if (list === undefined) throw new CliError(NO_ME, ExitCode.failure);
  return list;
}

/**
 * On a terminal, asks which workspace to use (the current one first); one workspace needs no
 * question. Undefined when there is none to pick or no terminal to ask on.
 */
export async function pickWorkspace(ctx: Context, workspaces: MyWorkspace[]): Promise<MyWorkspace | undefined> {
  if (workspaces.length <= 1) return workspaces[0];
  if (!ctx.io.isStdinTTY) return undefined;
  const ordered = [...workspaces].sort((a, b) => Number(b.current) - Number(a.current));
  const id = await ctx.prompter.select(
    'Which workspace?',
    ordered.map((w) => ({ name: `${w.name} (${w.id})${w.current ? ' - current' : ''}`, value: w.id })),
  );
  return workspaces.find((w) => w.id === id);
}
