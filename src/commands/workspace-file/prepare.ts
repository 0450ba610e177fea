// The steps diff and apply share: check the file, open the state file, read the server, plan.
import type { WsmClient } from '../../api/client.js';
import { WORKSPACE_SECTIONS } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { str, workspaceClient } from '../shared/verb.js';
import { observe, type ObserveResult } from './observe.js';
import { makePlan, type Plan } from './plan.js';
import { readWorkspaceFile, type LoadedFile } from './read.js';
import { defaultStatePath, openState, type StateFile } from './state.js';
import { markUnsupported } from './support.js';

export interface Prepared {
  loaded: LoadedFile;
  client: WsmClient;
  workspace: string;
  state?: StateFile;
  observed: ObserveResult;
  plan: Plan;
}

/** The apply command that makes this plan: the same file and flags. */
export function applyCommand(path: string, opts: Record<string, unknown>): string {
  const flags = [opts.prune === true ? ' --prune' : '', opts.replaceTemplates === true ? ' --replace-templates' : '', typeof opts.state === 'string' ? ` --state ${opts.state}` : ''];
  return `wsm apply -f ${path}${flags.join('')}`;
}

export async function preparePlan(ctx: Context, opts: Record<string, unknown>): Promise<Prepared> {
  const path = str(opts.file);
  if (path === undefined) throw new UsageError('give the workspace file with -f <file> (YAML or JSON; "-" reads stdin)');
  // Everything local first: a bad file is exit 2 before any request.
  const loaded = await readWorkspaceFile(ctx, path);
  const client = await workspaceClient(ctx);
  const workspace = await ctx.workspace();
  const { baseUrl } = await ctx.settings();
  const statePath = str(opts.state) ?? defaultStatePath(path);
  const state = statePath === undefined ? undefined : await openState(statePath, baseUrl!, workspace);
  const declared = WORKSPACE_SECTIONS.filter((section) => loaded.file[section] !== undefined);
  const observed = await observe(client, declared, state);
  const plan = makePlan(loaded.file, observed.observation, { prune: opts.prune === true, replaceTemplates: opts.replaceTemplates === true });
  await markUnsupported(client, plan, observed.observation);
  if (declared.length === 0) plan.notes.push(`${path} declares no section (fields, groups, labels, roles, templates), so it manages nothing`);
  return { loaded, client, workspace, state, observed, plan };
}
