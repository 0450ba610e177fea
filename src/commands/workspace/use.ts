// `wsm workspace use [<id|name>]`: make a workspace the profile's default. By id or by name
// (case-insensitive) among the workspaces GET /me lists; without an argument a terminal picks
// from them. A server without /me can still be given a UUID, checked with GET /workspaces/{id}.
import type { Context, SettingSource } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { isUuid } from '../../cli/values.js';
import type { CommandLine } from '../declare.js';
import { myWorkspaces, NO_ME, pickWorkspace, type MyWorkspace } from './mine.js';

function find(workspaces: MyWorkspace[], wanted: string): MyWorkspace {
  const byId = workspaces.find((w) => w.id.toLowerCase() === wanted.toLowerCase());
  if (byId) return byId;
  const byName = workspaces.filter((w) => w.name.toLowerCase() === wanted.toLowerCase());
  if (byName.length === 1) return byName[0];
  const known = workspaces.map((w) => `${w.name} (${w.id})`).join(', ') || 'none';
  if (byName.length > 1)
    throw new UsageError(
      `${byName.length} of your workspaces are named "${wanted}": use the id of one of ${byName.map((w) => w.id).join(', ')}`,
    );
  throw new UsageError(`no workspace of yours is "${wanted}"; yours: ${known}`);
}

async function chosen(ctx: Context, wanted: string | undefined): Promise<{ id: string; name?: string }> {
  const settings = await ctx.settings();
  const client = await ctx.client();
  const workspaces = await myWorkspaces(client, settings.workspace);
  if (workspaces === undefined) {
    if (wanted === undefined || !isUuid(wanted))
      throw new UsageError(NO_ME.replace('listing your workspaces', 'finding workspaces by name'));
    // No /me: the id is checked by reading the workspace itself.
    const scoped = await ctx.clientFor({ baseUrl: settings.baseUrl!, token: settings.token!, workspace: wanted });
    const { data } = await scoped.workspaces.get();
    return { id: wanted, name: (data as { name?: string } | undefined)?.name };
  }
  if (wanted !== undefined) return find(workspaces, wanted);
  if (!ctx.io.isStdinTTY) throw new UsageError('name the workspace: `wsm workspace use <id|name>` (see `wsm workspace list`)');
  const picked = await pickWorkspace(ctx, workspaces);
  if (!picked) throw new UsageError('your user belongs to no workspace: create one with `wsm workspace create <name>`');
  return picked;
}

/** The workspace asked for (its id or name); undefined: pick one on a terminal. */
export function parse({ args }: CommandLine): string | undefined {
  return args[0];
}

/** What was set: the workspace, the profile it was set in, and where a workspace that overrides it comes from. */
export interface WorkspaceUsed {
  workspace: { id: string; name?: string };
  profileName: string;
  overridden?: SettingSource;
}

export async function run(ctx: Context, wanted: string | undefined): Promise<WorkspaceUsed> {
  const workspace = await chosen(ctx, wanted);
  const config = await ctx.config();
  const { profileName, sources } = await ctx.settings();
  config.setProfile(profileName, { workspace: workspace.id });
  if (config.currentName() === undefined) config.useProfile(profileName);
  const overridden = sources.workspace === 'flag' || sources.workspace === 'env' ? sources.workspace : undefined;
  return { workspace, profileName, ...(overridden ? { overridden } : {}) };
}

export function render(ctx: Context, { workspace, profileName, overridden }: WorkspaceUsed): void {
  const named = workspace.name ? `${workspace.name} (${workspace.id})` : workspace.id;
  ctx.output.done(`now using workspace ${named} in profile "${profileName}"`);
  if (overridden !== undefined)
    ctx.output.warn(`${overridden === 'flag' ? '-w' : 'WSM_WORKSPACE'} still overrides the profile's workspace in this shell`);
  if (ctx.output.quiet) ctx.output.text(`${workspace.id}\n`);
}
