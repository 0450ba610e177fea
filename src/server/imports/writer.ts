/**
 * Writes import rows into contacts with statements prepared once per run.
 * Callers wrap a batch of rows in one transaction between `beginBatch()` and
 * `endBatch()`. The contacts an import creates are not indexed here: they get ids above the
 * search index's line and the index catches up behind the import (migration 011,
 * workers/search-index.ts), while search scans them.
 */
import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { ImportRow } from '../../api/schemas/index.js';
import { searchKey } from '../repositories/search-key.js';

export type RowOutcome = 'created' | 'updated';

export function createImportWriter(db: Db) {
  const byNumber = db.prepare<[string, string], number>('SELECT id FROM contacts WHERE workspace_id = ? AND number = ?').pluck();
  const insert = db.prepare<[string, string, string, string, string | null, string | null, string | null, number | null, string, string]>(
    `INSERT INTO contacts (workspace_id, number, name, name_key, email, email_key, gender, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, coalesce(?, 1), ?, ?)`,
  );
  // A NULL parameter is "cell left empty": the current value stays (its search key too).
  const update = db.prepare<[string | null, string | null, string | null, string | null, string | null, number | null, string, number]>(
    `UPDATE contacts SET name = coalesce(?, name), name_key = coalesce(?, name_key), email = coalesce(?, email),
            email_key = coalesce(?, email_key), gender = coalesce(?, gender), status = coalesce(?, status), updated_at = ? WHERE id = ?`,
  );
  // INSERT ... SELECT: a field or group deleted while the import runs is skipped, not a constraint error.
  const setField = db.prepare(
    `INSERT INTO contact_field_values (contact_id, field_id, value) SELECT ?, id, ? FROM contact_fields WHERE id = ?
     ON CONFLICT (contact_id, field_id) DO UPDATE SET value = excluded.value`,
  );
  const join = db.prepare(
    'INSERT OR IGNORE INTO contact_group_members (group_id, contact_id) SELECT id, ? FROM contact_groups WHERE id = ?',
  );
  let inBatch = false;
  let now = nowIso();

  return {
    /** Inside the batch's transaction, before its first row. */
    beginBatch(): void {
      inBatch = true;
      now = nowIso();
    },
    /** Inside the batch's transaction, after its last row. */
    endBatch(): void {
      inBatch = false;
    },

    /** `groupIds`: the groups the contact joins (the import's own group and those its row names); it leaves none. */
    write(workspaceId: string, row: ImportRow, fieldValues: Array<[number, string]>, groupIds: number[]): RowOutcome {
      if (!inBatch) throw new Error('createImportWriter: write() outside beginBatch()/endBatch()');
      const name = row.name || null;
      const email = row.email ?? null;
      const emailKey = email === null ? null : searchKey(email);
      const gender = row.gender ?? null;
      const status = row.status === undefined ? null : row.status ? 1 : 0;
      const existing = byNumber.get(workspaceId, row.number);
      let contactId: number;
      if (existing !== undefined) {
        contactId = existing;
        update.run(name, name === null ? null : searchKey(name), email, emailKey, gender, status, now, contactId);
      } else {
        const stored = name ?? 'Unknown';
        contactId = Number(
          insert.run(workspaceId, row.number, stored, searchKey(stored), email, emailKey, gender, status, now, now).lastInsertRowid,
        );
      }
      for (const [fieldId, value] of fieldValues) setField.run(contactId, value, fieldId);
      for (const groupId of groupIds) join.run(contactId, groupId);
      return existing !== undefined ? 'updated' : 'created';
    },
  };
}
