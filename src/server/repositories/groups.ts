import type { Db } from '../db.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { describedRecords } from './collection.js';

/**
 * Contact groups, a plain collection (collection.ts); `contacts_count` is kept by triggers on
 * contact_group_members (migration 001). Deleting one takes its memberships by cascade; imports
 * that named it keep running without one (SET NULL).
 */
export function createGroupsRepository(db: Db) {
  const records = describedRecords<ContactGroup>(db, DESCRIPTIONS.groups);
  // One statement for any number of ids: the list travels as a JSON array.
  const existing = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM contact_groups WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))',
  );

  return {
    ...records,
    /** Which of these ids are groups of the workspace. */
    existingIds(workspaceId: string, ids: number[]): Set<number> {
      if (ids.length === 0) return new Set();
      return new Set(existing.all(workspaceId, JSON.stringify(ids)).map((row) => row.id));
    },
  };
}
export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
