import type { Db } from './db.js';
import { ALL_PERMISSIONS } from '../api/schemas/index.js';
import { createUsersRepository, hashPassword, newToken } from './repositories/users.js';
import { createWorkspacesRepository } from './repositories/workspaces.js';

export interface SeedResult {
  workspaceId: string;
  userId: number;
  /** The admin token, only when this call created or was given it. */
  token: string;
  email: string;
  created: boolean;
}

const OWNER_EMAIL = 'owner@wsm.local';

/**
 * decisions.md §6: an empty database gets one workspace and an owner who has
 * every permission and is a partner, with a bearer token. On a database that
 * already has users, the given token (if any) is added to the first owner.
 */
export async function seed(db: Db, options: { workspaceId?: string; adminToken?: string; password?: string } = {}): Promise<SeedResult> {
  const users = createUsersRepository(db);
  const workspaces = createWorkspacesRepository(db);
  const existing = db.prepare<[], { id: number; email: string }>('SELECT id, email FROM users ORDER BY id LIMIT 1').get();
  if (existing) {
    const ws = workspaces.workspacesOf(existing.id)[0];
    const token = options.adminToken ?? '';
    if (token) users.addToken(existing.id, token);
    return { workspaceId: ws?.id ?? '', userId: existing.id, token, email: existing.email, created: false };
  }
  const token = options.adminToken ?? newToken();
  const passwordHash = options.password ? await hashPassword(options.password) : null;
  const result = db.transaction(() => {
    const userId = users.insert({ name: 'Owner', email: OWNER_EMAIL, password_hash: passwordHash, partner: true });
    const workspace = workspaces.create({
      id: options.workspaceId,
      name: 'Local workspace',
      createdBy: userId,
      permissions: ALL_PERMISSIONS,
    });
    users.addToken(userId, token);
    return { workspaceId: workspace.id, userId };
  })();
  return { ...result, token, email: OWNER_EMAIL, created: true };
}
