/**
 * The backends the end-to-end suite runs the real `wsm` against: `wsm serve` with its extensions,
 * `wsm serve --api-only`, and the independent stand-in for the hosted service (test/standin).
 * A workflow that needs an extension checks, on the other two, that wsm says so in one line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { cleanup, localProfile, serve } from './processes.js';
import { serveInProcess } from './serve-in-process.js';

export interface Backend {
  url: string;
  token: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** A scratch directory for files the test writes. */
  dir: string;
  /** True when the extensions of decisions.md §6 answer (only plain `wsm serve`). */
  extensions: boolean;
  /** Stops the backend; resolves to the exit code of a `wsm serve` process (0 when stopped cleanly). */
  stop(): Promise<number | null>;
}

export interface BackendKind {
  name: string;
  start(): Promise<Backend>;
}

/**
 * WSM_TEST_SERVE=process starts each `wsm serve` backend as a process of its own (the binary, as a
 * user runs it); otherwise the server it starts runs inside the test's process (serve-in-process.ts),
 * at a fraction of the CPU. SERVE_PROCESS is always the process: plan-apply.test.ts runs its
 * workflow on it, so the suite goes through a real `wsm serve` process the way the backends do.
 */
const SERVE_AS_PROCESS = process.env.WSM_TEST_SERVE === 'process';

function served(apiOnly: boolean, asProcess: boolean, approvalDelayMs = 0): BackendKind['start'] {
  return async () => {
    if (!asProcess) return { ...(await serveInProcess({ apiOnly, approvalDelayMs })), extensions: !apiOnly };
    const server = await serve(['--approval-delay', `${approvalDelayMs}ms`, ...(apiOnly ? ['--api-only'] : [])]);
    // wsm serve saved the `local` profile: the token and workspace it seeded.
    const local = localProfile(server);
    return {
      url: server.url,
      token: local.token,
      workspace: local.workspace,
      env: server.env,
      dir: server.dir,
      extensions: !apiOnly,
      async stop() {
        const code = await server.stop();
        cleanup(server.dir);
        return code;
      },
    };
  };
}

/**
 * `wsm serve` with its extensions, for a file whose point is what wsm does against it, not the
 * server's process: as BACKENDS[0] runs it, with the provider's review taking `approvalDelayMs`
 * (`--approval-delay`; 0, decided at once, unless given).
 */
export function serveBackend(options: { approvalDelayMs?: number } = {}): Promise<Backend> {
  return served(false, SERVE_AS_PROCESS, options.approvalDelayMs)();
}

/** `wsm serve` as a process of its own, whatever WSM_TEST_SERVE says. */
export const SERVE_PROCESS: BackendKind = { name: 'wsm serve (a process of its own)', start: served(false, true) };

export const BACKENDS: BackendKind[] = [
  { name: 'wsm serve', start: served(false, SERVE_AS_PROCESS) },
  { name: 'wsm serve --api-only', start: served(true, SERVE_AS_PROCESS) },
  {
    name: 'the stand-in for the hosted service',
    async start() {
      const standin = await startStandin({ importDelayMs: 50 });
      const dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
      return {
        url: standin.url,
        token: standin.token,
        workspace: standin.workspace,
        env: standin.env(dir),
        dir,
        extensions: false,
        async stop() {
          await standin.close();
          cleanup(dir);
          return 0;
        },
      };
    },
  },
];

/** Writes `text` into the backend's scratch directory as `name`: its path. */
export function backendFile(backend: Backend, name: string, text: string): string {
  const path = join(backend.dir, name);
  writeFileSync(path, text);
  return path;
}

/** One stderr line saying the server lacks an extension (exit 1), as wsm prints it. */
export const NOT_SUPPORTED = /^error: this server does not support [^\n]+\n$/;

/** A contact put straight into the stand-in's state, as if made before the test began. */
export function seedStandinContact(standin: Standin, number: string, name: string): void {
  standin.state.contacts.push({
    id: standin.state.nextId++,
    number,
    name,
    email: null,
    gender: null,
    status: true,
    created_at: 'x',
    updated_at: 'x',
  });
}

/**
 * For the describe block it is called in: a backend of `kind` started before its tests (then
 * `ready`, given it, sets up what they share) and stopped after them.
 */
export function withBackend(kind: BackendKind, ready: (backend: Backend) => void | Promise<void>): void {
  let backend: Backend | undefined;
  beforeAll(async () => {
    backend = await kind.start();
    await ready(backend);
  });
  afterAll(async () => {
    await backend?.stop();
  });
}
