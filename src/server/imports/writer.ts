/**
 * Writes import rows into contacts with statements prepared once per run.
 * Callers wrap a batch of rows in one transaction.
 */
import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { ImportRow } from '../../api/schemas/index.js';

export type RowOutcome = 'created' | 'updated';

export function createImportWriter(db: Db) {
  const byNumber = db.prepare<[string, string], { id: number }>('SELECT id FROM contacts WHERE workspace_id = ? AND number = ?');
  const insert = db.prepare(
    `INSERT INTO contacts (workspace_id, number, name, email, gender, status, created_at, updated_at)
     VALUES (@ws, @number, coalesce(@name, 'Unknown'), @email, @gender, coalesce(@status, 1), @now, @now)`,
  );
  // A NULL parameter is "cell left empty": the current value stays.
  const update = db.prepare(
    `UPDATE contacts SET name = coalesce(@name, name), email = coalesce(@email, email), gender = coalesce(@gender, gender),
            status = coalesce(@status, status), updated_at = @now WHERE id = @id`,
  );
  // INSERT ... SELECT: a field or group deleted while the import runs is skipped, not a constraint error.
  const setField = db.prepare(
    `INSERT INTO contact_field_values (contact_id, field_id, value) SELECT ?, id, ? FROM contact_fields WHERE id = ?
     ON CONFLICT (contact_id, field_id) DO UPDATE SET value = excluded.value`,
  );
  const join = db.prepare(
    'INSERT OR IGNORE INTO contact_group_members (group_id, contact_id) SELECT id, ? FROM contact_groups WHERE id = ?',
  );

  return {
    write(workspaceId: string, row: ImportRow, fieldValues: Array<[number, string]>, groupId: number | null): RowOutcome {
      const values = {
        name: row.name || null,
        email: row.email ?? null,
        gender: row.gender ?? null,
        status: row.status === undefined ? null : row.status ? 1 : 0,
        now: nowIso(),
      };
      const existing = byNumber.get(workspaceId, row.number);
      let contactId: number;
      if (existing) {
        contactId = existing.id;
        update.run({ ...values, id: contactId });
      } else {
        contactId = Number(insert.run({ ...values, ws: workspaceId, number: row.number }).lastInsertRowid);
      }
      for (const [fieldId, value] of fieldValues) setField.run(contactId, value, fieldId);
      if (groupId !== null) join.run(contactId, groupId);
      return existing ? 'updated' : 'created';
    },
  };
}
