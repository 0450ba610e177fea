/**
 * `wsm serve`: opens the database, seeds it when empty, listens, and saves
 * the `local` CLI profile so the next `wsm` command works with no set-up.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, API_PREFIX } from './app.js';
import { openDatabase, type Db } from './db.js';
import { seed } from './seed.js';
import { createUsersRepository, newToken } from './repositories/users.js';
import { createSimulatedProvider } from './provider/simulated.js';
import type { ProviderFaultKind } from './provider/provider.js';
import { dataDir } from './paths.js';
import { lockDatabaseFile, type DatabaseLock } from './lock.js';
import { createImportsRepository } from './repositories/imports.js';
import { isLoopbackHost } from '../api/loopback.js';
import { asUnusable } from './unusable-database.js';

/** How long SIGINT/SIGTERM waits for requests in flight: under the 10 s after which `docker stop` kills. */
const SHUTDOWN_DEADLINE_MS = 8_000;

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
  /** Lines for the operator on stderr, while starting and serving (printed by the command as warnings). */
  onWarning?: (message: string) => void;
  /** Extensions answer 404 (decisions.md §7). */
  apiOnly?: boolean;
  /** Origins whose pages may call the API (CORS). */
  corsOrigins?: readonly string[];
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

/**
 * V8 grows the young generation with the rate of allocation, to hundreds of MB on a machine
 * with plenty of memory: left to grow, an import of a million rows takes the server from 120 to
 * 300 MB, nearly all of it young-generation space holding garbage. Kept at its first size, the
 * server's short-lived objects (a request's, an import batch's) are collected as often and
 * cheaply (docs/benchmarks.md). An import's rows are made a chunk at a time and live until their
 * batch is written, which makes V8 allocate those places' later objects straight in the old
 * generation ("pretenuring"), where they wait for a full collection: kept young, they die young,
 * as the CLI keeps its rows (cli/young-rows.ts). V8 reads both flags at each decision, so setting
 * them at run time applies.
 */
const YOUNG_GENERATION_FIXED = ['--semi-space-growth-factor=1', '--no-allocation-site-pretenuring'];

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  for (const flag of YOUNG_GENERATION_FIXED) setFlagsFromString(flag);
  // Before anything is made on disk: a port in use would otherwise leave a new database, its lock
  // and its uploads folder behind for a server that never ran.
  await checkPortFree(options.host, options.port);
  const dbFile = options.db ?? join(dataDir(), 'wsm.db');
  // Before the database is even opened: a second server must not migrate it under the first.
  const lock = dbFile === ':memory:' ? undefined : lockDatabaseFile(dbFile);
  try {
    return await startOnLockedDatabase(options, dbFile, lock);
  } catch (error) {
    lock?.release();
    // Damage found past the first reads (seeding, releasing claims) is named like damage found on opening.
    throw asUnusable(dbFile, error);
  }
}

/** Fails with Node's own listen error (EADDRINUSE, EACCES, ...) when `port` cannot be listened on; port 0 always can. */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, resolve);
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

async function startOnLockedDatabase(options: ServeOptions, dbFile: string, lock: DatabaseLock | undefined): Promise<RunningServer> {
  const db = openDatabase(dbFile);
  // This process holds the lock: claims on imports left by a previous one are void.
  createImportsRepository(db).releaseClaims();
  const temporaryUploads = dbFile === ':memory:';
  const uploadsDir = temporaryUploads ? mkdtempSync(join(tmpdir(), 'wsm-uploads-')) : `${dbFile}.uploads`;
  // Owner-only, like the database (an older wsm made it 0755).
  mkdirSync(uploadsDir, { recursive: true, mode: 0o700 });
  chmodSync(uploadsDir, 0o700);
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
  const app = await buildApp({
    db,
    uploadsDir,
    provider,
    logger: options.logger,
    onWarning: options.onWarning,
    listenHost: options.host,
    apiOnly: options.apiOnly,
    corsOrigins: options.corsOrigins,
  });
  if (!isLoopbackHost(options.host)) {
    options.onWarning?.(
      `listening on ${options.host}: the API is reachable from the network, by anyone who can reach this port; use --host 127.0.0.1 to keep it on this machine`,
    );
  }
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    db.close();
    throw error;
  }
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
      // Stops accepting and waits for the requests in flight, but not for ever: a client stalled
      // mid-body would hold the shutdown until its request time limit. Past the deadline every
      // connection is cut.
      const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_DEADLINE_MS);
      try {
        await app.close(); // also stops the workers after their batch in flight
      } finally {
        clearTimeout(deadline);
      }
      db.close();
      lock?.release();
      if (temporaryUploads) rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}
