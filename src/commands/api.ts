// `wsm api`: any endpoint, raw, with the profile's auth. Declarations only; the verb is ./api/request.ts.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const API_FLAGS = {
  field: {
    flags: '-f, --field <key=value>',
    description: 'a string field: query parameter for GET/DELETE, JSON body field otherwise; key[]=v appends; repeat',
    repeatable: true,
  },
  input: { flags: '--input <file>', description: 'JSON request body from a file ("-" for stdin); -f fields then go to the query' },
} as const;

export const api = verbSpec({
  name: 'api',
  description: SUMMARIES.api,
  args: [
    ['<method>', 'GET, POST, PUT, PATCH or DELETE'],
    ['<path>', 'path under the base URL, e.g. /workspaces/{workspace}/contacts'],
  ],
  flags: API_FLAGS,
  examples: [
    'wsm api GET /workspaces/{workspace}/contacts -f search=ann -f per_page=5',
    'wsm api POST /workspaces/{workspace}/labels -f name=urgent -f color=#ff0000',
    'wsm api PATCH /workspaces/partner/permissions --input perms.json',
    'echo \'{"name":"vip"}\' | wsm api PUT /workspaces/{workspace}/labels/4 --input -',
  ],
  load: () => import('./api/request.js'),
});

export function registerApi(program: Command): void {
  addVerb(program, api);
}
