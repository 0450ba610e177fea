/**
 * A stand-in whose work never ends, for waits that must time out, be interrupted or say they are
 * alive: template 4 stays PENDING, import 8 stays processing (an upload becomes import 8), and an
 * upload of doomed.csv becomes import 9, which failed. It counts the requests to each path.
 */
import type { ServerResponse } from 'node:http';
import { fakeServer, reply } from './terminal.js';

export const UNENDING_WORKSPACE = '5f0e2b1c-3d4a-4e5f-8a9b-0c1d2e3f4a5b';
const PENDING_TEMPLATE = { id: 4, name: 'order_update', language: 'en', category: 'UTILITY', status: 'PENDING' };
export const RUNNING_IMPORT = { id: 8, name: 'people.csv', status: 'processing', total_rows: 1000, processed_rows: 250 };
export const FAILED_IMPORT = {
  id: 9,
  name: 'doomed.csv',
  status: 'failed',
  errors: [{ row: 0, message: 'The file has no number column.' }],
};

export interface UnendingServer {
  /** Environment for `wsm` against it, with config under `dir`'s env. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** How many requests reached `path` (`/contact-imports/8`), under the workspace. */
  requests(path: string): number;
  close(): Promise<void>;
}

export async function unendingServer(): Promise<UnendingServer> {
  const seen = new Map<string, number>();
  const answer = (method: string | undefined, path: string, body: string, res: ServerResponse) => {
    if (method === 'POST' && path === '/templates/sync') return reply(res, 200, { success: true, message: 'Templates synced.' });
    if (path === '/templates/4') return reply(res, 200, { success: true, data: PENDING_TEMPLATE });
    if (method === 'POST' && path === '/contact-imports') {
      const made = body.includes('doomed.csv') ? FAILED_IMPORT : RUNNING_IMPORT;
      return reply(res, 201, { data: { id: made.id, name: made.name, status: 'pending' } });
    }
    if (path === '/contact-imports/8') return reply(res, 200, { data: RUNNING_IMPORT });
    if (path === '/contact-imports/9') return reply(res, 200, { data: FAILED_IMPORT });
    if (path === '/contacts') return reply(res, 200, { data: [], meta: { current_page: 1, last_page: 1, per_page: 1, total: 0 } });
    reply(res, 404, { message: 'Resource not found.', status: 404 });
  };
  const server = await fakeServer((req, res) => {
    const path = (req.url ?? '').replace(`/api/v3/workspaces/${UNENDING_WORKSPACE}`, '').replace(/\?.*$/, '');
    seen.set(path, (seen.get(path) ?? 0) + 1);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => answer(req.method, path, body, res));
  });
  return {
    env: (base) => ({ ...base, WSM_BASE_URL: server.url, WSM_TOKEN: 'tok_unending', WSM_WORKSPACE: UNENDING_WORKSPACE }),
    requests: (path) => seen.get(path) ?? 0,
    close: () => server.close(),
  };
}
