// The steps diff and apply share: check the file, open the state file, read the server (and the
// workspace's name, in the same round trip), plan.
import type { WsmClient } from '../../api/client.js';
import { WORKSPACE_SECTIONS } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { PlanOptions } from '../plan-options.js';
import { workspaceClient } from '../shared/verb.js';
import { observe, type ObserveResult } from './observe.js';
import { makePlan, type Plan } from './plan.js';
import { readWorkspaceFile, type LoadedFile } from './read.js';
import { hostFile } from '../../cli/host-files.js';
import { defaultStatePath, openState, type StateFile } from './state.js';
import type { PlanTarget } from './render.js';
import { markUnsupported } from './support.js';

export interface Prepared {
  loaded: LoadedFile;
  client: WsmClient;
  workspace: string;
  state?: StateFile;
  observed: ObserveResult;
  plan: Plan;
  /** What the plan was made against: server, workspace, profile. */
  target: PlanTarget;
}

/** The apply command that makes this plan: the same file and flags. */
export function applyCommand(path: string, opts: PlanOptions): string {
  const flags = [
    opts.prune === true ? ' --prune' : '',
    opts.replaceTemplates === true ? ' --replace-templates' : '',
    opts.state !== undefined ? ` --state ${opts.state}` : '',
  ];
  return `wsm apply -f ${path}${flags.join('')}`;
}

export async function preparePlan(ctx: Context, opts: PlanOptions): Promise<Prepared> {
  const path = opts.file;
  if (path === undefined) throw new UsageError('give the workspace file with -f <file> (YAML or JSON; "-" reads stdin)');
  // Everything local first: a bad file is exit 2 before any request.
  const loaded = await readWorkspaceFile(ctx, path);
  const client = await workspaceClient(ctx);
  const workspace = await ctx.workspace();
  const { baseUrl, profileName, sources } = await ctx.settings();
  const statePath = opts.state ?? defaultStatePath(path);
  const state = statePath === undefined ? undefined : await openState(hostFile(ctx, statePath), baseUrl!, workspace);
  const declared = WORKSPACE_SECTIONS.filter((section) => loaded.file[section] !== undefined);
  // The name is read beside the lists, not before them: a distant server costs no extra round trip.
  // It only names the workspace: a server that will not say (no workspaces.view) still gets a plan.
  const [observed, workspaceName] = await Promise.all([
    observe(client, declared, state),
    client.workspaces.get().then(
      (answer) => answer.data?.name,
      () => undefined,
    ),
  ]);
  const plan = makePlan(loaded.file, observed.observation, {
    prune: opts.prune === true,
    replaceTemplates: opts.replaceTemplates === true,
  });
  await markUnsupported(client, plan, observed.observation);
  if (declared.length === 0)
    plan.notes.push(`${path} declares no section (fields, groups, labels, roles, templates), so it manages nothing`);
  // A profile that does not exist lent nothing: the settings came from flags and the environment.
  const profile = (await ctx.config()).getProfile(profileName) === undefined ? undefined : profileName;
  const target: PlanTarget = {
    server: baseUrl!,
    serverFrom: sources.baseUrl,
    workspace,
    workspaceName,
    workspaceFrom: sources.workspace,
    profile,
  };
  return { loaded, client, workspace, state, observed, plan, target };
}
