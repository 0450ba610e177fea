import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';

const COLUMNS = 'id, workspace_id, name, contacts_count, created_at, updated_at';

/** Contact groups; `contacts_count` is kept by triggers on contact_group_members (migration 001). */
export function createGroupsRepository(db: Db) {
  const counters = createCounters(db);
  const page = db.prepare<[string, number, number], ContactGroup>(
    `SELECT ${COLUMNS} FROM contact_groups WHERE workspace_id = +? ORDER BY id LIMIT ?+0 OFFSET ?+0`,
  );
  const byId = db.prepare<[string, number], ContactGroup>(`SELECT ${COLUMNS} FROM contact_groups WHERE workspace_id = ? AND id = ?`);
  const byName = db.prepare<[string, string], { id: number }>('SELECT id FROM contact_groups WHERE workspace_id = ? AND name = ?');
  // One statement for any number of ids: the list travels as a JSON array.
  const existing = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM contact_groups WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))',
  );
  const insert = db.prepare('INSERT INTO contact_groups (workspace_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const rename = db.prepare('UPDATE contact_groups SET name = ?, updated_at = ? WHERE workspace_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM contact_groups WHERE workspace_id = ? AND id = ?');

  return {
    list: (workspaceId: string, offset: number, limit: number) => page.all(workspaceId, limit, offset),
    count: (workspaceId: string) => counters.count(workspaceId, 'contact_groups'),
    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    /** The id holding this name, to answer a clash with a 422 instead of a constraint error. */
    idOfName: (workspaceId: string, name: string) => byName.get(workspaceId, name)?.id,
    /** Which of these ids are groups of the workspace. */
    existingIds(workspaceId: string, ids: number[]): Set<number> {
      if (ids.length === 0) return new Set();
      return new Set(existing.all(workspaceId, JSON.stringify(ids)).map((row) => row.id));
    },
    create(workspaceId: string, name: string): ContactGroup {
      const now = nowIso();
      const info = insert.run(workspaceId, name, now, now);
      return byId.get(workspaceId, Number(info.lastInsertRowid))!;
    },
    rename(workspaceId: string, id: number, name: string): ContactGroup {
      rename.run(name, nowIso(), workspaceId, id);
      return byId.get(workspaceId, id)!;
    },
    /** Memberships go by cascade; imports that named the group keep running without one (SET NULL). */
    delete: (workspaceId: string, id: number) => remove.run(workspaceId, id).changes > 0,
  };
}
export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
