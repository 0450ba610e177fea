/**
 * An independent stand-in for the hosted service, written from the published API alone (it imports nothing
 * of `src/`): in memory, the 26 operations of the published API only, Laravel's envelopes and errors, and
 * the quirks of quirks.ts switchable one at a time. Tests start it on 127.0.0.1, port 0:
 *
 *   const standin = await startStandin();
 *   standin.quirks.validationStatus = 400;
 *   ... run the real `wsm` with standin.env(dir) ...
 *   await standin.close();
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createFrame, Router, timestamp } from './http.js';
import type { Quirks } from './quirks.js';
import { registerRoutes, type State } from './routes.js';

const STANDIN_TOKEN = '1|standin-token-3f9a8b7c6d5e4f3a2b1c';
const STANDIN_WORKSPACE = '9b2d7c1e-4f3a-4b5c-8d9e-0a1b2c3d4e5f';

export interface Standin {
  /** Base URL including /api/v3. */
  url: string;
  token: string;
  workspace: string;
  quirks: Quirks;
  state: State;
  /** `METHOD /path` of every request that reached a route, in order. */
  requests: string[];
  /** How many requests wait out `quirks.delayMs` or `quirks.holdWrites` now. */
  pacing(): number;
  /** Environment for the real `wsm` binary: this stand-in, with config under `dir`. */
  env(dir: string): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface StandinOptions {
  quirks?: Quirks;
  /** How long an import takes to process after its 201 (default 150 ms). */
  importDelayMs?: number;
}

export function initialState(): State {
  const at = timestamp();
  return {
    workspace: { id: STANDIN_WORKSPACE, name: 'Acme Support', plan: 'business', created_at: at, updated_at: at },
    contacts: [],
    groups: [],
    fields: [],
    imports: [],
    labels: [],
    roles: [
      { id: 1, name: 'Admin', guard_name: 'sanctum', permissions: ['contacts.view', 'contacts.create'], created_at: at, updated_at: at },
    ],
    users: [
      {
        id: 1,
        name: 'Olga Owner',
        email: 'olga@example.test',
        timezone: 'UTC',
        status: true,
        client: false,
        avatar: null,
        created_at: at,
        updated_at: at,
      },
      {
        id: 2,
        name: 'Ugo Agent',
        email: 'ugo@example.test',
        timezone: 'Europe/Lisbon',
        status: true,
        client: false,
        avatar: null,
        created_at: at,
        updated_at: at,
      },
    ],
    templates: [],
    // Names of the service's own permission system: some are not in wsm serve's list at all.
    permissions: {
      contacts: ['contacts.view', 'contacts.create', 'contacts.update', 'contacts.delete', 'contacts.export'],
      templates: ['templates.view', 'templates.create', 'templates.delete', 'templates.sync'],
      campaigns: ['campaigns.view', 'campaigns.send'],
    },
    partnerDefaults: [],
    syncRounds: new Map(),
    nextId: 3,
  };
}

export async function startStandin(options: StandinOptions = {}): Promise<Standin> {
  const quirks: Quirks = { ...options.quirks };
  const state = initialState();
  const requests: string[] = [];
  const router = new Router();
  registerRoutes(router, { state, quirks, importDelayMs: options.importDelayMs ?? 150 });
  let pacing = 0;
  const pace = async (method: string) => {
    const held = method === 'GET' ? undefined : quirks.holdWrites;
    if (quirks.delayMs === undefined && held === undefined) return;
    pacing += 1;
    if (quirks.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, quirks.delayMs));
    await held;
    pacing -= 1;
  };
  let seen = 0;
  const throttle = () => {
    seen += 1;
    return quirks.throttle && seen % quirks.throttle.every === 0 ? quirks.throttle.retryAfterSeconds : undefined;
  };
  const server = createFrame({
    router,
    token: () => STANDIN_TOKEN,
    record: (line) => requests.push(line),
    throttle,
    pace,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/api/v3`;
  return {
    url,
    token: STANDIN_TOKEN,
    workspace: STANDIN_WORKSPACE,
    quirks,
    state,
    requests,
    pacing: () => pacing,
    env(dir) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        WSM_CONFIG_DIR: join(dir, 'config'),
        WSM_DATA_DIR: join(dir, 'data'),
        NO_COLOR: '1',
      };
      for (const key of ['WSM_PROFILE', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[key];
      return { ...env, WSM_BASE_URL: url, WSM_TOKEN: STANDIN_TOKEN, WSM_WORKSPACE: STANDIN_WORKSPACE };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
