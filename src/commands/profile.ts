// `wsm profile`: declarations only; each verb lives in ./profile/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples, type Selectable } from '../cli/action.js';
import { selectionOptions } from './declare.js';

const profileFields: Selectable = { fields: async () => ['name', 'current', 'base_url', 'workspace', 'token'] };

export function registerProfile(program: Command): void {
  const profile = program.command('profile').description(SUMMARIES.profile);

  withExamples(
    selectionOptions(profile.command('list').description('list saved profiles; the current one is marked with *')).action(
      lazy(() => import('./profile/list.js'), profileFields),
    ),
    ['wsm profile list', 'wsm profile list -o json', 'wsm profile list --json name,base_url'],
  );

  withExamples(
    profile
      .command('use')
      .description('make a saved profile the current one')
      .argument('<name>', 'profile name')
      .action(lazy(() => import('./profile/use.js'))),
    ['wsm profile use staging'],
  );

  withExamples(
    selectionOptions(profile.command('show').description('show one profile (default: the one in use), token masked').argument('[name]', 'profile name')).action(
      lazy(() => import('./profile/show.js'), profileFields),
    ),
    ['wsm profile show', 'wsm profile show local -o json', "wsm profile show --jq .base_url"],
  );

  withExamples(
    profile
      .command('set')
      .description('set base-url, workspace or token in the profile in use (created if missing)')
      .argument('<key>', 'base-url | workspace | token')
      .argument('<value>', 'new value')
      .action(lazy(() => import('./profile/set.js'))),
    [
      'wsm profile set base-url http://127.0.0.1:8080/api/v3',
      'wsm profile set workspace 9b2f0c4e-5d7a-4c1e-9a8b-2f3e4d5c6b7a --profile staging',
    ],
  );
}
