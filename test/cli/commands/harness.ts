// Drives the real CLI in-process against an undici MockAgent that refuses any request it was not
// told about, so "nothing was sent" is checked by the absence of an interceptor.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent, type Interceptable } from 'undici';
import { runCli, type RunOptions, type RunResult } from '../helpers.js';

export { formOf } from '../../api/received-form.js';

const ORIGIN = 'http://api.test';
export const BASE_URL = `${ORIGIN}/api/v3`;
export const TOKEN = 'tok_cmds_9f8e7d6c5b';
export const WS = '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f';
/** Path prefix of workspace-scoped endpoints as the mock sees them. */
export const WSP = `/api/v3/workspaces/${WS}`;
export const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };

export interface Api {
  agent: MockAgent;
  pool: Interceptable;
  dir: string;
  /** Runs `wsm <argv>` logged in through the environment; piped unless told otherwise. */
  run(argv: string[], options?: RunOptions): Promise<RunResult>;
  /** Writes a file in the test's temp directory and returns its path. */
  file(name: string, content: string | Buffer): Promise<string>;
  close(): Promise<void>;
}

/**
 * `NO_JOURNAL` for a file that checks the requests a write verb sends, one by one: the change
 * journal's own read of the record before it (test/e2e/undo-resources.test.ts) is left out.
 */
export const NO_JOURNAL: RunOptions = { env: { WSM_HISTORY: 'off' } };

export async function setupApi(defaults: RunOptions = {}): Promise<Api> {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const dir = await mkdtemp(join(tmpdir(), 'wsm-cmd-test-'));
  return {
    agent,
    pool: agent.get(ORIGIN),
    dir,
    run: (argv, options = {}) =>
      runCli(argv, {
        configDir: join(dir, 'config'),
        dispatcher: agent,
        ...defaults,
        ...options,
        env: { WSM_BASE_URL: BASE_URL, WSM_TOKEN: TOKEN, WSM_WORKSPACE: WS, ...defaults.env, ...options.env },
      }),
    file: async (name, content) => {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    },
    close: async () => {
      // Every interceptor a test set up must have been used: a request we expected was made.
      try {
        agent.assertNoPendingInterceptors();
      } finally {
        await agent.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The envelope of one page of a list. */
export function page<T>(data: T[], current = 1, last = 1, perPage = 10, total = data.length) {
  const from = data.length ? (current - 1) * perPage + 1 : null;
  return {
    data,
    meta: { current_page: current, per_page: perPage, total, last_page: last, from, to: from === null ? null : from + data.length - 1 },
    links: { first: null, last: null, prev: null, next: null },
  };
}

/** Records the JSON bodies a mock endpoint receives. */
export function jsonBodies(): { bodies: unknown[]; capture: (opts: { body?: unknown }) => void } {
  const bodies: unknown[] = [];
  return { bodies, capture: (opts) => void bodies.push(JSON.parse(String(opts.body))) };
}

const T = '2025-03-01T10:00:00.000Z';

export function contact(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    workspace_id: WS,
    number: `1415555${String(id).padStart(4, '0')}`,
    name: `Contact ${id}`,
    email: null,
    gender: null,
    status: true,
    avatar_url: null,
    contact_groups: [],
    fields: {},
    created_at: T,
    updated_at: T,
    ...overrides,
  };
}

export function template(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    workspace_id: WS,
    name: `tpl_${id}`,
    language: 'en',
    category: 'UTILITY',
    status: 'PENDING',
    provider_id: `prov-${id}`,
    rejection_reason: null,
    components: { header: null, body: { text: 'Hello {{1}}!', variables: ['Ann'] }, footer: null, buttons: [] },
    options: {},
    created_at: T,
    updated_at: T,
    ...overrides,
  };
}

export function importRecord(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    workspace_id: WS,
    name: 'contacts.csv',
    status: 'pending',
    contact_group: null,
    file_name: 'contacts.csv',
    total_rows: 3,
    processed_rows: 0,
    created_count: 0,
    updated_count: 0,
    failed_count: 0,
    errors: [],
    created_at: T,
    updated_at: T,
    finished_at: null,
    ...overrides,
  };
}

export const stamp = { created_at: T, updated_at: T };

export function label(id: number, name: string, color: string | null = null) {
  return { id, workspace_id: WS, name, color, ...stamp };
}

export function role(id: number, name: string, permissions: string[] = []) {
  return { id, workspace_id: WS, name, permissions, ...stamp };
}

/** The workspace's contact fields, as the published API lists them: the local check holds their columns to the field rules. */
export function listFields(api: Api, names: string[] = []): void {
  api.pool
    .intercept({ path: (path) => path.startsWith(`${WSP}/contact-fields`), method: 'GET' })
    .reply(200, page(names.map((name, i) => ({ id: i + 1, workspace_id: WS, name, ...stamp }))), JSON_HEADERS);
}

/** The workspace's contacts, none: a real import reads them first, to ask about changes a spreadsheet may have made. */
export function emptyWorkspace(api: Api): void {
  api.pool.intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
}

/** GET /me as `wsm serve` answers it: the caller's workspace with what it may do there. */
export function meHolds(api: Api, permissions: string[]): void {
  const workspace = { id: WS, name: 'Main', role: { id: 2, name: 'Member' }, permissions };
  api.pool
    .intercept({ path: '/api/v3/me', method: 'GET' })
    .reply(
      200,
      { data: { id: 5, name: 'Dee', email: 'dee@example.com', partner: false, workspaces: [workspace], ...stamp } },
      JSON_HEADERS,
    );
}

/** A server without GET /me (the published API): a 404 as Laravel answers a route it lacks. */
export function noMe(api: Api): void {
  api.pool.intercept({ path: '/api/v3/me', method: 'GET' }).reply(404, { message: 'Not Found' }, JSON_HEADERS);
}
