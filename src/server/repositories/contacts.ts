import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { Contact } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';
import { createFilesRepository } from './files.js';
import { createContactPages } from './contact-pages.js';
import { createContactSearch } from './contact-search.js';

export interface ContactRow {
  id: number;
  workspace_id: string;
  number: string;
  name: string;
  email: string | null;
  gender: Contact['gender'];
  status: number;
  avatar_file: string | null;
  created_at: string;
  updated_at: string;
}

/** What a create or an update writes; `undefined` on the optional parts means "leave as is". */
export interface ContactWrite {
  name: string;
  email: string | null;
  gender: Contact['gender'];
  status: boolean;
  /** A new avatar (already checked by magic bytes). */
  avatar?: { bytes: Buffer; contentType: string };
  /** Replaces the memberships when given. */
  groupIds?: number[];
  /** field id -> value; an empty value removes the field from the contact. */
  fieldValues?: Map<number, string>;
}

export function createContactsRepository(db: Db) {
  const counters = createCounters(db);
  const files = createFilesRepository(db);

  const pages = createContactPages(db);
  const searcher = createContactSearch(db);

  const byId = db.prepare<[string, number], ContactRow>('SELECT * FROM contacts WHERE workspace_id = ? AND id = ?');
  const byNumber = db.prepare<[string, string], { id: number }>('SELECT id FROM contacts WHERE workspace_id = ? AND number = ?');
  // Records of a whole page in two queries: the page's ids travel as one JSON array.
  const groupsOf = db.prepare<[string], { contact_id: number; id: number; name: string }>(
    `SELECT m.contact_id, g.id, g.name FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id
      WHERE m.contact_id IN (SELECT value FROM json_each(?)) ORDER BY g.id`,
  );
  const fieldsOf = db.prepare<[string], { contact_id: number; name: string; value: string }>(
    `SELECT v.contact_id, f.name, v.value FROM contact_field_values v JOIN contact_fields f ON f.id = v.field_id
      WHERE v.contact_id IN (SELECT value FROM json_each(?)) ORDER BY f.id`,
  );

  const insert = db.prepare(
    `INSERT INTO contacts (workspace_id, number, name, email, gender, status, avatar_file, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    'UPDATE contacts SET name = ?, email = ?, gender = ?, status = ?, avatar_file = ?, updated_at = ? WHERE workspace_id = ? AND id = ?',
  );
  const indexRow = db.prepare('INSERT INTO contacts_fts (rowid, number, name, email) VALUES (?, ?, ?, coalesce(?, \'\'))');
  const remove = db.prepare('DELETE FROM contacts WHERE workspace_id = ? AND id = ?');
  const clearGroups = db.prepare('DELETE FROM contact_group_members WHERE contact_id = ?');
  const addGroup = db.prepare('INSERT OR IGNORE INTO contact_group_members (group_id, contact_id) VALUES (?, ?)');
  const setField = db.prepare(
    `INSERT INTO contact_field_values (contact_id, field_id, value) VALUES (?, ?, ?)
     ON CONFLICT (contact_id, field_id) DO UPDATE SET value = excluded.value`,
  );
  const unsetField = db.prepare('DELETE FROM contact_field_values WHERE contact_id = ? AND field_id = ?');

  function writeRelations(contactId: number, input: ContactWrite): void {
    if (input.groupIds) {
      clearGroups.run(contactId);
      for (const groupId of input.groupIds) addGroup.run(groupId, contactId);
    }
    for (const [fieldId, value] of input.fieldValues ?? []) {
      if (value === '') unsetField.run(contactId, fieldId);
      else setField.run(contactId, fieldId, value);
    }
  }

  return {
    /** A page in id order and the total, exact at any depth (contact-pages.ts). */
    list: (workspaceId: string, offset: number, limit: number) => pages.page(workspaceId, offset, limit).rows,
    page: (workspaceId: string, offset: number, limit: number) => pages.page(workspaceId, offset, limit),
    count: (workspaceId: string) => counters.count(workspaceId, 'contacts'),

    /** Case-insensitive substring of name, number or email (decisions.md §3; contact-search.ts). */
    search: (workspaceId: string, query: string, offset: number, limit: number): { rows: ContactRow[]; total: number } =>
      searcher.search(workspaceId, query, offset, limit),

    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    idOfNumber: (workspaceId: string, number: string) => byNumber.get(workspaceId, number)?.id,

    /** Records as decisions.md §3 returns them, for any number of rows in three queries in all. */
    records(rows: ContactRow[], avatarUrl: (fileId: string | null) => string | null): Contact[] {
      if (rows.length === 0) return [];
      const ids = JSON.stringify(rows.map((row) => row.id));
      const groups = new Map<number, Contact['contact_groups']>();
      for (const { contact_id, id, name } of groupsOf.all(ids)) {
        const list = groups.get(contact_id) ?? [];
        list.push({ id, name });
        groups.set(contact_id, list);
      }
      const fields = new Map<number, Record<string, string>>();
      for (const { contact_id, name, value } of fieldsOf.all(ids)) {
        const values = fields.get(contact_id) ?? {};
        values[name] = value;
        fields.set(contact_id, values);
      }
      return rows.map((row) => ({
        id: row.id,
        workspace_id: row.workspace_id,
        number: row.number,
        name: row.name,
        email: row.email,
        gender: row.gender,
        status: row.status === 1,
        avatar_url: avatarUrl(row.avatar_file),
        contact_groups: groups.get(row.id) ?? [],
        fields: fields.get(row.id) ?? {},
        created_at: row.created_at,
        updated_at: row.updated_at,
      }));
    },

    create: db.transaction((workspaceId: string, number: string, input: ContactWrite): ContactRow => {
      const now = nowIso();
      const avatar = input.avatar ? files.store(input.avatar.bytes, input.avatar.contentType) : null;
      const info = insert.run(workspaceId, number, input.name, input.email, input.gender, input.status ? 1 : 0, avatar, now, now);
      const id = Number(info.lastInsertRowid);
      // The search index is kept explicitly on insert (migration 002).
      indexRow.run(id, number, input.name, input.email);
      writeRelations(id, input);
      return byId.get(workspaceId, id)!;
    }),

    /** The replaced avatar is deleted in the same transaction, so no file is orphaned. */
    update: db.transaction((current: ContactRow, input: ContactWrite): ContactRow => {
      let avatar = current.avatar_file;
      if (input.avatar) {
        avatar = files.store(input.avatar.bytes, input.avatar.contentType);
        if (current.avatar_file) files.delete(current.avatar_file);
      }
      update.run(input.name, input.email, input.gender, input.status ? 1 : 0, avatar, nowIso(), current.workspace_id, current.id);
      writeRelations(current.id, input);
      return byId.get(current.workspace_id, current.id)!;
    }),

    /** Memberships and field values go by cascade; the avatar file goes with the contact. */
    delete: db.transaction((workspaceId: string, id: number): boolean => {
      const row = byId.get(workspaceId, id);
      if (!row) return false;
      remove.run(workspaceId, id);
      if (row.avatar_file) files.delete(row.avatar_file);
      return true;
    }),
  };
}
export type ContactsRepository = ReturnType<typeof createContactsRepository>;
