// `wsm api`: any endpoint, raw, with the profile's auth. Declarations only; the verb is ./api/request.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';
import { repeatable } from './declare.js';

export function registerApi(program: Command): void {
  const api = program
    .command('api')
    .description(SUMMARIES.api)
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
    .argument('<path>', 'path under the base URL, e.g. /workspaces/{workspace}/contacts')
    .option('-f, --field <key=value>', 'a string field: query parameter for GET/DELETE, JSON body field otherwise; key[]=v appends; repeat', repeatable)
    .option('--input <file>', 'JSON request body from a file ("-" for stdin); -f fields then go to the query')
    .action(lazy(() => import('./api/request.js')));
  withExamples(api, [
    'wsm api GET /workspaces/{workspace}/contacts -f search=ann -f per_page=5',
    'wsm api POST /workspaces/{workspace}/labels -f name=urgent -f color=#ff0000',
    'wsm api PATCH /workspaces/partner/permissions --input perms.json',
    'echo \'{"name":"vip"}\' | wsm api PUT /workspaces/{workspace}/labels/4 --input -',
  ]);
}
