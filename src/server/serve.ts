/**
 * `wsm serve`: opens the database, seeds it when empty, listens, and saves
 * the `local` CLI profile so the next `wsm` command works with no set-up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, API_PREFIX } from './app.js';
import { openDatabase, type Db } from './db.js';
import { seed } from './seed.js';
import { createUsersRepository, newToken } from './repositories/users.js';
import { createSimulatedProvider } from './provider/simulated.js';
import type { ProviderFaultKind } from './provider/provider.js';
import { dataDir } from './paths.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** A file path or `:memory:`; default: wsm.db in the user's data directory. */
  db?: string;
  adminToken?: string;
  workspace?: string;
  approvalDelayMs: number;
  providerFault?: ProviderFaultKind;
  /** A token saved earlier (the `local` profile); reused when it still opens this database. */
  previousToken?: string;
  logger?: boolean;
  /** Extensions answer 404 (decisions.md §7). */
  apiOnly?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  token: string;
  workspaceId: string;
  /** True when the token was minted by this start (print it: nobody else knows it). */
  newToken: boolean;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dbFile = options.db ?? join(dataDir(), 'wsm.db');
  const db = openDatabase(dbFile);
  const uploadsDir = dbFile === ':memory:' ? mkdtempSync(join(tmpdir(), 'wsm-uploads-')) : `${dbFile}.uploads`;
  const seeded = await seed(db, { workspaceId: options.workspace, adminToken: options.adminToken });
  const users = createUsersRepository(db);

  let token = seeded.token;
  let minted = seeded.created && !options.adminToken;
  if (!token) {
    const previous = options.previousToken && users.findByToken(options.previousToken);
    if (previous) token = options.previousToken!;
    else {
      token = newToken();
      users.addToken(seeded.userId, token);
      minted = true;
    }
  }

  const provider = createSimulatedProvider(db, { approvalDelayMs: options.approvalDelayMs, fault: options.providerFault });
  const app = await buildApp({ db, uploadsDir, provider, logger: options.logger, apiOnly: options.apiOnly });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    app,
    db,
    url: `http://${host}:${port}${API_PREFIX}`,
    token,
    workspaceId: seeded.workspaceId,
    newToken: minted,
    async close() {
      await app.close(); // stops accepting, waits for in-flight requests, stops workers
      db.close();
    },
  };
}
