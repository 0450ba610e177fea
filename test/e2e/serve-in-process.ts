/**
 * The server `wsm serve` starts, started inside the test's own process: the `startServer` the serve
 * command calls, from the built bundle the binary runs (dist/bundle, `npm run build` first), on a
 * real SQLite file in a temp folder, listening on 127.0.0.1 port 0, and the `local` profile saved
 * in that folder's config directory as `wsm serve` saves it. The binary and `wsmInProcess` find the
 * token, base URL and workspace there exactly as they do after a `wsm serve` process started.
 * A start of `wsm serve` as a process costs about half a second of CPU; this costs milliseconds
 * once the bundle is loaded. What the process itself does (its log, signals, exit code, the
 * database lock between two processes) is tested with `serve()` of processes.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { saveLocalProfile as saveLocalProfileOfSource } from '../../src/cli/config.js';
import type { startServer as startServerOfSource } from '../../src/server/serve.js';
import { cleanup, localProfile, type Served, testEnv } from './processes.js';

const BUNDLE = resolve(import.meta.dirname, '../../dist/bundle');

/** The bundle's chunk holding `source` (dist/bundle/chunks.json maps each chunk to its sources), loaded natively. */
async function chunkOf<T>(source: string): Promise<T> {
  const chunks = JSON.parse(readFileSync(join(BUNDLE, 'chunks.json'), 'utf8')) as Record<string, string[]>;
  const chunk = Object.keys(chunks).find((name) => chunks[name].includes(source));
  if (chunk === undefined) throw new Error(`dist/bundle has no chunk with ${source}: run npm run build`);
  return import(pathToFileURL(join(BUNDLE, chunk)).href) as Promise<T>;
}

export type ServedInProcess = Pick<Served, 'url' | 'dir' | 'env'> & {
  token: string;
  workspace: string;
  /** Closes the server and its SQLite file, and removes the folder: 0, as `wsm serve` exits when stopped cleanly. */
  stop(): Promise<number>;
};

/** `wsm serve --port 0 --db <temp>/wsm.db --approval-delay <approvalDelayMs, 0 if not given>ms [--api-only]`, in this process. */
export async function serveInProcess(options: { apiOnly: boolean; approvalDelayMs?: number }): Promise<ServedInProcess> {
  const [{ startServer }, { saveLocalProfile }] = await Promise.all([
    chunkOf<{ startServer: typeof startServerOfSource }>('src/server/serve.ts'),
    chunkOf<{ saveLocalProfile: typeof saveLocalProfileOfSource }>('src/cli/config.ts'),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'wsm-e2e-'));
  const env = testEnv(dir);
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    db: join(dir, 'wsm.db'),
    approvalDelayMs: options.approvalDelayMs ?? 0,
    apiOnly: options.apiOnly,
    corsOrigins: [],
    // Where `wsm serve` prints its warnings: the test's output.
    onWarning: (message) => process.stderr.write(`wsm serve (in process): warning: ${message}\n`),
  });
  await saveLocalProfile({ baseUrl: server.url, token: server.token, workspace: server.workspaceId }, { env });
  // Read back as the CLI reads it: what was saved is what a command will use.
  const local = localProfile({ dir });
  return {
    url: server.url,
    dir,
    env,
    token: local.token,
    workspace: local.workspace,
    async stop() {
      await server.close();
      cleanup(dir);
      return 0;
    },
  };
}
