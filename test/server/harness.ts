/**
 * A real app on a real SQLite file in a temp folder, seeded like `wsm serve`
 * seeds, plus helpers to call it as different users. Every test file uses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { openDatabase, type Db } from '../../src/server/db.js';
import { seed } from '../../src/server/seed.js';
import { createUsersRepository, newToken } from '../../src/server/repositories/users.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { nowIso } from '../../src/server/db.js';

import { expect } from 'vitest';
import type { ResourceDescription } from '../../src/api/descriptions/index.js';

/** Timestamps as decisions.md §1 writes them, for whole-body assertions. */
export const stamp = { created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/) };
export const NOT_FOUND = { message: 'Resource not found.', status: 404 };

export interface Harness {
  app: FastifyInstance;
  db: Db;
  dir: string;
  dbPath: string;
  ws: string;
  token: string;
  /** inject with the owner's token unless `token` is given (null = no header). */
  call(options: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
  /** POSTs a JSON body as the owner, expects 201, and returns `data`. */
  create(url: string, payload: Record<string, unknown>): Promise<any>;
  /** A user who is a member of the seeded workspace with a role holding exactly these permissions. */
  memberWith(permissions: string[]): Promise<string>;
  /** A user in another workspace only. */
  outsider(): Promise<string>;
  close(): Promise<void>;
}

/** Makes the harness's server listen on 127.0.0.1 (a port of the system's choice): its API's base URL, as wsm is given it. */
export async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}/api/v3`;
}

export async function createHarness(options: Partial<AppOptions> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'wsm-test-'));
  const dbPath = join(dir, 'wsm.db');
  const db = openDatabase(dbPath);
  const seeded = await seed(db);
  const app = await buildApp({ db, uploadsDir: join(dir, 'uploads'), workers: false, ...options });
  await app.ready();
  const users = createUsersRepository(db);
  const workspaces = createWorkspacesRepository(db);
  let counter = 0;

  const harness: Harness = {
    app,
    db,
    dir,
    dbPath,
    ws: seeded.workspaceId,
    token: seeded.token,
    call({ token, ...rest }) {
      const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
      const bearer = token === undefined ? seeded.token : token;
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      return app.inject({ ...rest, headers });
    },
    async create(url, payload) {
      const res = await harness.call({ method: 'POST', url, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    },
    async memberWith(permissions) {
      counter += 1;
      const userId = users.insert({ name: `Member ${counter}`, email: `member${counter}@test.local`, password_hash: null });
      const role = db
        .prepare('INSERT INTO roles (workspace_id, name, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(seeded.workspaceId, `role_${counter}`, JSON.stringify(permissions), nowIso(), nowIso());
      workspaces.addMember(seeded.workspaceId, userId, Number(role.lastInsertRowid));
      const token = newToken();
      users.addToken(userId, token);
      return token;
    },
    async outsider() {
      counter += 1;
      const userId = users.insert({ name: `Outsider ${counter}`, email: `outsider${counter}@test.local`, password_hash: null });
      workspaces.create({ name: `Other ${counter}`, createdBy: userId, permissions: ['contacts.view'] });
      const token = newToken();
      users.addToken(userId, token);
      return token;
    },
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * A create body a plain collection accepts: each field its create body requires, as a name-like
 * text (`walk_probe` fits a field name's `^[a-z_]+$` too), so a walk over the catalog's plain
 * collections tests a new one without a line of its own.
 */
export function probeBody(description: ResourceDescription): Record<string, string> {
  const shape = (
    description.operations.create.body as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }
  ).shape;
  return Object.fromEntries(
    Object.keys(shape).flatMap((field) => (shape[field].safeParse(undefined).success ? [] : [[field, 'walk_probe']])),
  );
}
