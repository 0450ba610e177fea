// `wsm workspace`: each verb's declaration; its run lives in ./workspace/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const get = verbSpec({
  name: 'get',
  description: 'show the current workspace (-w, WSM_WORKSPACE or the profile)',
  examples: ['wsm workspace get', 'wsm workspace get -w 2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f -o json'],
  load: () => import('./workspace/get.js'),
});

export const list = verbSpec({
  name: 'list',
  description: 'list the workspaces your token reaches (from GET /me); the current one is marked with *',
  examples: ['wsm workspace list', 'wsm workspace list --json id,name'],
  selection: { fields: async () => ['id', 'name', 'current'] },
  load: () => import('./workspace/list.js'),
});

export const use = verbSpec({
  name: 'use',
  description: "make a workspace the profile's default, by id or name (on a terminal, without one: pick from a list)",
  args: [['[workspace]', 'workspace id or name (see `wsm workspace list`)']],
  examples: ['wsm workspace use "Acme support"', 'wsm workspace use 2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f', 'wsm workspace use'],
  load: () => import('./workspace/use.js'),
});

export const create = verbSpec({
  name: 'create',
  description: 'create a workspace you own (embedded server extension)',
  args: [['<name>', 'workspace name']],
  examples: ['wsm workspace create "Acme support"', 'wsm profile set workspace "$(wsm workspace create Acme -q)"'],
  load: () => import('./workspace/create.js'),
});

export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description(SUMMARIES.workspace);
  for (const spec of [get, list, use, create]) addVerb(workspace, spec);
}
