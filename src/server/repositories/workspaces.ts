import { randomUUID } from 'node:crypto';
import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import { ALL_PERMISSIONS, type Workspace } from '../../api/schemas/index.js';

interface WorkspaceRow {
  id: string;
  name: string;
  created_by: number | null;
  permissions: string;
  created_at: string;
  updated_at: string;
}

export interface Membership {
  workspace_id: string;
  user_id: number;
  role_id: number | null;
  role_name: string | null;
  /** The role's permissions that are also enabled in the workspace. */
  permissions: string[];
  /** Deactivated in this workspace: shut out of it (decisions.md §8), the user's other memberships aside. */
  active: boolean;
  /** Holds the workspace's built-in role, or created it as a partner: may manage every other member. */
  owner: boolean;
}

const OWNER_ROLE = 'Owner';

export function createWorkspacesRepository(db: Db) {
  const byId = db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?');
  const insertWorkspace = db.prepare(
    'INSERT INTO workspaces (id, name, created_by, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertBuiltinRole = db.prepare(
    'INSERT INTO roles (workspace_id, name, permissions, builtin, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)',
  );
  const insertMembership = db.prepare('INSERT INTO memberships (workspace_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)');
  // Asked on every request: `+?` keeps one plan for every call (db.ts, "Re-planned statements").
  const membership = db.prepare<
    [string, number],
    {
      workspace_id: string;
      user_id: number;
      role_id: number | null;
      role_name: string | null;
      role_permissions: string | null;
      role_builtin: number | null;
      status: number;
      ws_permissions: string;
      partner_creator: number;
    }
  >(
    `SELECT m.workspace_id, m.user_id, m.role_id, m.status, r.name AS role_name, r.permissions AS role_permissions, r.builtin AS role_builtin,
            w.permissions AS ws_permissions, (w.created_by = m.user_id AND u.partner = 1) AS partner_creator
       FROM memberships m JOIN workspaces w ON w.id = m.workspace_id JOIN users u ON u.id = m.user_id
       LEFT JOIN roles r ON r.id = m.role_id
      WHERE m.workspace_id = +? AND m.user_id = +?`,
  );
  const workspaceIdsOf = db.prepare<[number], string>('SELECT workspace_id FROM memberships WHERE user_id = ?').pluck();
  const ofUser = db.prepare<[number], { id: string; name: string; role_id: number | null; role_name: string | null; status: number }>(
    `SELECT w.id, w.name, r.id AS role_id, r.name AS role_name, m.status FROM memberships m
       JOIN workspaces w ON w.id = m.workspace_id LEFT JOIN roles r ON r.id = m.role_id
      WHERE m.user_id = ? ORDER BY w.created_at, w.id`,
  );
  const anyActive = db.prepare<[number], number>('SELECT 1 FROM memberships WHERE user_id = ? AND status = 1 LIMIT 1').pluck();

  /**
   * The caller's standing in a workspace: its role's permissions that the workspace enables.
   * A partner keeps full access to a workspace it created (decisions.md §7): its defaults
   * bound what the workspace's roles may hold, not the partner itself.
   */
  function membershipIn(workspaceId: string, userId: number): Membership | undefined {
    const row = membership.get(workspaceId, userId);
    if (!row) return undefined;
    const enabled = new Set(JSON.parse(row.ws_permissions) as string[]);
    const granted = row.role_permissions ? (JSON.parse(row.role_permissions) as string[]) : [];
    return {
      workspace_id: row.workspace_id,
      user_id: row.user_id,
      role_id: row.role_id,
      role_name: row.role_name,
      permissions: row.partner_creator === 1 ? [...ALL_PERMISSIONS] : granted.filter((p) => enabled.has(p)),
      active: row.status === 1,
      owner: row.role_builtin === 1 || row.partner_creator === 1,
    };
  }

  return {
    find(id: string): Workspace | undefined {
      const row = byId.get(id);
      return row && { id: row.id, name: row.name, created_at: row.created_at, updated_at: row.updated_at };
    },
    enabledPermissions(id: string): string[] {
      const row = byId.get(id);
      return row ? (JSON.parse(row.permissions) as string[]) : [];
    },
    /**
     * A workspace comes with a built-in Owner role holding every enabled permission,
     * and its creator as a member with that role.
     */
    create: db.transaction((input: { id?: string; name: string; createdBy: number; permissions: string[] }): Workspace => {
      const id = input.id ?? randomUUID();
      const now = nowIso();
      const permissions = JSON.stringify(input.permissions);
      insertWorkspace.run(id, input.name, input.createdBy, permissions, now, now);
      const role = insertBuiltinRole.run(id, OWNER_ROLE, permissions, now, now);
      insertMembership.run(id, input.createdBy, Number(role.lastInsertRowid), now);
      return { id, name: input.name, created_at: now, updated_at: now };
    }),
    membership: membershipIn,
    /** Every membership of a user, active or not, with what it may do there. */
    membershipsOf: (userId: number): Membership[] => workspaceIdsOf.all(userId).flatMap((id) => membershipIn(id, userId) ?? []),
    addMember(workspaceId: string, userId: number, roleId: number | null): void {
      insertMembership.run(workspaceId, userId, roleId, nowIso());
    },
    /** A user with no active membership left is shut out everywhere (401, decisions.md §8). */
    hasActiveMembership: (userId: number) => anyActive.get(userId) !== undefined,
    /** The workspaces a user may work in (its active memberships), each with what it may do there. */
    workspacesOf(userId: number) {
      return ofUser
        .all(userId)
        .filter((w) => w.status === 1)
        .map((w) => ({
          id: w.id,
          name: w.name,
          role: w.role_id === null ? null : { id: w.role_id, name: w.role_name ?? '' },
          permissions: membershipIn(w.id, userId)?.permissions ?? [],
        }));
    },
  };
}
