import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { ContactField } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';

const COLUMNS = 'id, workspace_id, name, created_at, updated_at';

/** Contact field definitions; the values live in contact_field_values (see contacts repository). */
export function createFieldsRepository(db: Db) {
  const counters = createCounters(db);
  const page = db.prepare<[string, number, number], ContactField>(
    `SELECT ${COLUMNS} FROM contact_fields WHERE workspace_id = +? ORDER BY id LIMIT ?+0 OFFSET ?+0`,
  );
  const byId = db.prepare<[string, number], ContactField>(`SELECT ${COLUMNS} FROM contact_fields WHERE workspace_id = ? AND id = ?`);
  const byName = db.prepare<[string, string], { id: number }>('SELECT id FROM contact_fields WHERE workspace_id = ? AND name = ?');
  const all = db.prepare<[string], { id: number; name: string }>('SELECT id, name FROM contact_fields WHERE workspace_id = ? ORDER BY id');
  const insert = db.prepare('INSERT INTO contact_fields (workspace_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const rename = db.prepare('UPDATE contact_fields SET name = ?, updated_at = ? WHERE workspace_id = ? AND id = ?');
  const remove = db.prepare('DELETE FROM contact_fields WHERE workspace_id = ? AND id = ?');

  return {
    list: (workspaceId: string, offset: number, limit: number) => page.all(workspaceId, limit, offset),
    count: (workspaceId: string) => counters.count(workspaceId, 'contact_fields'),
    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    idOfName: (workspaceId: string, name: string) => byName.get(workspaceId, name)?.id,
    /** name -> id of every field of the workspace (a workspace defines a handful, not thousands). */
    idsByName: (workspaceId: string) => new Map(all.all(workspaceId).map((row) => [row.name, row.id])),
    create(workspaceId: string, name: string): ContactField {
      const now = nowIso();
      const info = insert.run(workspaceId, name, now, now);
      return byId.get(workspaceId, Number(info.lastInsertRowid))!;
    },
    /** Values stay attached by id, so a rename keeps every contact's value. */
    rename(workspaceId: string, id: number, name: string): ContactField {
      rename.run(name, nowIso(), workspaceId, id);
      return byId.get(workspaceId, id)!;
    },
    /** The values of the field go with it (ON DELETE CASCADE). */
    delete: (workspaceId: string, id: number) => remove.run(workspaceId, id).changes > 0,
  };
}
export type FieldsRepository = ReturnType<typeof createFieldsRepository>;
