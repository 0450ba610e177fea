import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { Role } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';

interface RoleRow extends Omit<Role, 'permissions' | 'builtin'> {
  permissions: string;
  builtin: number;
}
const toRole = (row: RoleRow): Role => ({ ...row, permissions: JSON.parse(row.permissions) as string[], builtin: row.builtin === 1 });

export function createRolesRepository(db: Db) {
  const counters = createCounters(db);
  const page = db.prepare<[string, number, number], RoleRow>(
    'SELECT * FROM roles WHERE workspace_id = +? ORDER BY id LIMIT ?+0 OFFSET ?+0',
  );
  const byId = db.prepare<[string, number], RoleRow>('SELECT * FROM roles WHERE workspace_id = ? AND id = ?');
  const byName = db.prepare<[string, string], { id: number }>('SELECT id FROM roles WHERE workspace_id = ? AND name = ?');
  const insert = db.prepare('INSERT INTO roles (workspace_id, name, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE roles SET name = ?, permissions = ?, updated_at = ? WHERE workspace_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM roles WHERE workspace_id = ? AND id = ?');
  const holders = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM memberships WHERE workspace_id = ? AND role_id = ?',
  );

  return {
    list: (ws: string, offset: number, limit: number) => page.all(ws, limit, offset).map(toRole),
    count: (ws: string) => counters.count(ws, 'roles'),
    find(ws: string, id: number): Role | undefined {
      const row = byId.get(ws, id);
      return row && toRole(row);
    },
    idOfName: (ws: string, name: string) => byName.get(ws, name)?.id,
    create(ws: string, input: { name: string; permissions: string[] }): Role {
      const now = nowIso();
      const info = insert.run(ws, input.name, JSON.stringify(input.permissions), now, now);
      return toRole(byId.get(ws, Number(info.lastInsertRowid))!);
    },
    update(ws: string, id: number, input: { name: string; permissions: string[] }): Role {
      update.run(input.name, JSON.stringify(input.permissions), nowIso(), ws, id);
      return toRole(byId.get(ws, id)!);
    },
    delete: (ws: string, id: number) => remove.run(ws, id).changes > 0,
    /** How many members hold the role: a role in use cannot be deleted. */
    memberCount: (ws: string, id: number) => holders.get(ws, id)?.n ?? 0,
  };
}
