import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { Label } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';

export function createLabelsRepository(db: Db) {
  const counters = createCounters(db);
  const page = db.prepare<[string, number, number], Label>(
    'SELECT * FROM labels WHERE workspace_id = +? ORDER BY id LIMIT ?+0 OFFSET ?+0',
  );
  const byId = db.prepare<[string, number], Label>('SELECT * FROM labels WHERE workspace_id = ? AND id = ?');
  const byName = db.prepare<[string, string], { id: number }>('SELECT id FROM labels WHERE workspace_id = ? AND name = ?');
  const insert = db.prepare(
    'INSERT INTO labels (workspace_id, name, color, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const update = db.prepare('UPDATE labels SET name = ?, color = ?, updated_at = ? WHERE workspace_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM labels WHERE workspace_id = ? AND id = ?');

  return {
    list: (workspaceId: string, offset: number, limit: number) => page.all(workspaceId, limit, offset),
    count: (workspaceId: string) => counters.count(workspaceId, 'labels'),
    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    /** The id holding this name, to answer a clash with a 422 instead of a constraint error. */
    idOfName: (workspaceId: string, name: string) => byName.get(workspaceId, name)?.id,
    create(workspaceId: string, input: { name: string; color: string | null }): Label {
      const now = nowIso();
      const info = insert.run(workspaceId, input.name, input.color, now, now);
      return byId.get(workspaceId, Number(info.lastInsertRowid))!;
    },
    update(workspaceId: string, id: number, input: { name: string; color: string | null }): Label {
      update.run(input.name, input.color, nowIso(), workspaceId, id);
      return byId.get(workspaceId, id)!;
    },
    delete: (workspaceId: string, id: number) => remove.run(workspaceId, id).changes > 0,
  };
}
