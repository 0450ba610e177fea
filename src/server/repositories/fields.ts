import type { Db } from '../db.js';
import type { ContactField } from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { describedRecords } from './collection.js';

/**
 * Contact field definitions, a plain collection (collection.ts); the values live in
 * contact_field_values (see contacts repository), attached by id: a rename keeps every contact's
 * value, a deletion takes them (ON DELETE CASCADE).
 */
export function createFieldsRepository(db: Db) {
  const records = describedRecords<ContactField>(db, DESCRIPTIONS.fields);
  const all = db.prepare<[string], { id: number; name: string }>('SELECT id, name FROM contact_fields WHERE workspace_id = ? ORDER BY id');

  return {
    ...records,
    /** name -> id of every field of the workspace (a workspace defines a handful, not thousands). */
    idsByName: (workspaceId: string) => new Map(all.all(workspaceId).map((row) => [row.name, row.id])),
  };
}
