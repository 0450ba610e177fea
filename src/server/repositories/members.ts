import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { User } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';
import { toUserRecord, type UserRow } from './users.js';

type MemberRow = UserRow & { role_id: number | null; role_name: string | null; member_status: number };

/** The users of a workspace: users joined to their membership and role there. */
export function createMembersRepository(db: Db) {
  const counters = createCounters(db);
  const select = `SELECT u.*, r.id AS role_id, r.name AS role_name, m.status AS member_status FROM memberships m
    JOIN users u ON u.id = m.user_id LEFT JOIN roles r ON r.id = m.role_id`;
  const page = db.prepare<[string, number, number], MemberRow>(`${select} WHERE m.workspace_id = +? ORDER BY u.id LIMIT ?+0 OFFSET ?+0`);
  const one = db.prepare<[string, number], MemberRow>(`${select} WHERE m.workspace_id = ? AND u.id = ?`);
  const setRole = db.prepare('UPDATE memberships SET role_id = ? WHERE workspace_id = ? AND user_id = ?');
  const setStatus = db.prepare('UPDATE memberships SET status = ? WHERE workspace_id = ? AND user_id = ?');
  const emailHolder = db.prepare<[string], { id: number }>('SELECT id FROM users WHERE email = ?');

  const toRecord = (row: MemberRow, avatarUrl: (file: string | null) => string | null): User =>
    toUserRecord(
      row,
      { role: row.role_id === null ? null : { id: row.role_id, name: row.role_name ?? '' }, active: row.member_status === 1 },
      avatarUrl(row.avatar_file),
    );

  return {
    list: (ws: string, offset: number, limit: number, avatarUrl: (f: string | null) => string | null) =>
      page.all(ws, limit, offset).map((row) => toRecord(row, avatarUrl)),
    count: (ws: string) => counters.count(ws, 'users'),
    find(ws: string, id: number, avatarUrl: (f: string | null) => string | null): User | undefined {
      const row = one.get(ws, id);
      return row && toRecord(row, avatarUrl);
    },
    emailHolder: (email: string) => emailHolder.get(email)?.id,
    setRole: (ws: string, userId: number, roleId: number) => void setRole.run(roleId, ws, userId),
    /** Status is the membership's: deactivation in one workspace shuts the member out of that one only. */
    setStatus: (ws: string, userId: number, active: boolean) => void setStatus.run(active ? 1 : 0, ws, userId),
    /** Applies only the given columns (the caller has validated them); with none, only updated_at moves. */
    updateUser(userId: number, changes: Record<string, string | number | null>): void {
      const assignments = [...Object.keys(changes).map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ');
      db.prepare(`UPDATE users SET ${assignments} WHERE id = @id`).run({ ...changes, updated_at: nowIso(), id: userId });
    },
  };
}
