// `wsm profile`: declarations only; each verb lives in ./profile/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import type { Selectable } from '../cli/action.js';
import { addVerb, verbSpec } from './declare.js';

const profileFields: Selectable = { fields: async () => ['name', 'current', 'base_url', 'workspace', 'token'] };

export const list = verbSpec({
  name: 'list',
  description: 'list saved profiles; the one in use (--profile, WSM_PROFILE, else the current one) is marked with *',
  examples: ['wsm profile list', 'wsm profile list -o json', 'wsm profile list --json name,base_url'],
  load: () => import('./profile/list.js'),
  selection: profileFields,
});

export const use = verbSpec({
  name: 'use',
  description: 'make a saved profile the current one',
  args: [['<name>', 'profile name']],
  examples: ['wsm profile use staging'],
  load: () => import('./profile/use.js'),
});

export const show = verbSpec({
  name: 'show',
  description: 'show one profile (default: the one in use), token masked',
  args: [['[name]', 'profile name']],
  examples: ['wsm profile show', 'wsm profile show local -o json', 'wsm profile show --jq .base_url'],
  load: () => import('./profile/show.js'),
  selection: profileFields,
});

export const set = verbSpec({
  name: 'set',
  description: 'set base-url, workspace or token in the profile in use (created if missing)',
  args: [
    ['<key>', 'base-url | workspace | token'],
    ['<value>', 'new value'],
  ],
  examples: [
    'wsm profile set base-url http://127.0.0.1:8080/api/v3',
    'wsm profile set workspace 9b2f0c4e-5d7a-4c1e-9a8b-2f3e4d5c6b7a --profile staging',
  ],
  load: () => import('./profile/set.js'),
});

export const remove = verbSpec({
  name: 'delete',
  description: 'delete a saved profile and its token from this machine (asks on a terminal; --yes otherwise)',
  args: [['<name>', 'profile name']],
  examples: ['wsm profile delete local', 'wsm profile delete staging --yes'],
  load: () => import('./profile/delete.js'),
});

export function registerProfile(program: Command): void {
  const profile = program.command('profile').description(SUMMARIES.profile);
  addVerb(profile, list);
  addVerb(profile, use);
  addVerb(profile, show);
  addVerb(profile, set);
  addVerb(profile, remove);
}
