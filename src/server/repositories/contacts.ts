import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { Contact } from '../../api/schemas/index.js';
import { createFilesRepository } from './files.js';
import { createContactFilter, type FieldValue } from './contact-filter.js';
import { createContactPages } from './contact-pages.js';
import { createContactSearch, type SearchResult } from './contact-search.js';
import { createSearchIndex, type SearchIndex } from './search-index.js';
import { searchKey } from './search-key.js';

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

export function createContactsRepository(db: Db, searchIndex: SearchIndex = createSearchIndex(db)) {
  const files = createFilesRepository(db);

  const pages = createContactPages(db);
  const searcher = createContactSearch(db);
  const filtered = createContactFilter(db);

  const byId = db.prepare<[string, number], ContactRow>('SELECT * FROM contacts WHERE workspace_id = ? AND id = ?');
  const byNumber = db.prepare<[string, string], { id: number }>('SELECT id FROM contacts WHERE workspace_id = ? AND number = ?');
  // Records (decisions.md §3) as JSON text, written by SQLite in one statement for any number
  // of contacts: a page never becomes JS row objects that are then re-serialised, which was most
  // of a list request's own time (10 rows: 103 -> 57 µs; 100 rows: 554 -> 313 µs). The ids
  // travel as one JSON array; groups and fields keep their id order, as the API documents.
  // json_group_object is not used: it cuts a key at a NUL character, json_quote does not. A
  // contact with no groups (or no field values) skips its aggregate, which costs even with no
  // rows to read (a sorter for its ORDER BY): 10 records 28 -> 12 µs.
  const renderRecords = db
    .prepare<[{ ids: string; files: string }], string>(
      `SELECT json_group_array(json_object(
         'id', c.id, 'workspace_id', c.workspace_id, 'number', c.number, 'name', c.name, 'email', c.email,
         'gender', c.gender, 'status', json(iif(c.status = 1, 'true', 'false')),
         'avatar_url', iif(c.avatar_file IS NULL, NULL, @files || c.avatar_file),
         'contact_groups', iif(NOT EXISTS (SELECT 1 FROM contact_group_members m WHERE m.contact_id = c.id), json('[]'),
           json((SELECT json_group_array(json_object('id', g.id, 'name', g.name) ORDER BY g.id)
             FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id WHERE m.contact_id = c.id))),
         'fields', iif(NOT EXISTS (SELECT 1 FROM contact_field_values v WHERE v.contact_id = c.id), json('{}'),
           json((SELECT coalesce('{' || group_concat(json_quote(f.name) || ':' || json_quote(v.value), ',' ORDER BY f.id) || '}', '{}')
             FROM contact_field_values v JOIN contact_fields f ON f.id = v.field_id WHERE v.contact_id = c.id))),
         'created_at', c.created_at, 'updated_at', c.updated_at) ORDER BY c.id)
       FROM contacts c WHERE c.id IN (SELECT value FROM json_each(@ids))`,
    )
    .pluck();

  const insert = db.prepare(
    `INSERT INTO contacts (workspace_id, number, name, name_key, email, email_key, gender, status, avatar_file, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    `UPDATE contacts SET name = ?, name_key = ?, email = ?, email_key = ?, gender = ?, status = ?, avatar_file = ?, updated_at = ?
     WHERE workspace_id = ? AND id = ?`,
  );
  /** The search keys stored beside a contact's name and e-mail (search-key.ts). */
  const keysOf = (input: ContactWrite) => ({ name: searchKey(input.name), email: input.email === null ? null : searchKey(input.email) });
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

  /** The records of `ids` (in id order) as a JSON array text; `filesBaseUrl` prefixes avatar ids. */
  const recordsJson = (ids: number[], filesBaseUrl: string): string =>
    ids.length === 0 ? '[]' : renderRecords.get({ ids: JSON.stringify(ids), files: filesBaseUrl })!;

  return {
    /** The ids of a page in id order and the total, exact at any depth (contact-pages.ts). */
    page: (workspaceId: string, offset: number, limit: number) => pages.page(workspaceId, offset, limit),

    /** Case-insensitive substring of name, number or email (decisions.md §3; contact-search.ts). */
    search: (workspaceId: string, query: string, offset: number, limit: number): { ids: number[]; total: number } =>
      searcher.search(workspaceId, query, offset, limit),

    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    idOfNumber: (workspaceId: string, number: string) => byNumber.get(workspaceId, number)?.id,

    /**
     * A page of the workspace's contacts in id order, or of a search's matches, or of the contacts
     * holding every field value of `fields` (contact-filter.ts), as JSON text, with its total and
     * how many records the text holds: read in one transaction, so the total, the page and its
     * records agree even while another connection writes.
     */
    pageJson: db.transaction(
      (
        workspaceId: string,
        search: string | undefined,
        offset: number,
        limit: number,
        filesBaseUrl: string,
        fields: FieldValue[] = [],
      ): ContactPage => {
        if (fields.length > 0) {
          const { ids, total } = filtered.filter(fields, search, offset, limit);
          return { json: recordsJson(ids, filesBaseUrl), count: ids.length, total };
        }
        const found = search ? searcher.search(workspaceId, search, offset, limit) : undefined;
        const { ids, total } = found ?? pages.page(workspaceId, offset, limit);
        return { json: recordsJson(ids, filesBaseUrl), count: ids.length, total, timing: found?.timing };
      },
    ),
    /** One contact's record, from the same renderer as pages. */
    record: (row: ContactRow, filesBaseUrl: string): Contact => (JSON.parse(recordsJson([row.id], filesBaseUrl)) as Contact[])[0],

    create: db.transaction((workspaceId: string, number: string, input: ContactWrite): ContactRow => {
      const now = nowIso();
      const avatar = input.avatar ? files.store(input.avatar.bytes, input.avatar.contentType) : null;
      const keys = keysOf(input);
      const info = insert.run(
        workspaceId,
        number,
        input.name,
        keys.name,
        input.email,
        keys.email,
        input.gender,
        input.status ? 1 : 0,
        avatar,
        now,
        now,
      );
      const id = Number(info.lastInsertRowid);
      // Indexed at once, unless an import's rows wait to be indexed below it (migration 011).
      searchIndex.created(id);
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
      const keys = keysOf(input);
      update.run(
        input.name,
        keys.name,
        input.email,
        keys.email,
        input.gender,
        input.status ? 1 : 0,
        avatar,
        nowIso(),
        current.workspace_id,
        current.id,
      );
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

/** A page of contacts as JSON text, its total, and how many records the text holds. */
export interface ContactPage {
  json: string;
  count: number;
  total: number;
  /** What a search's parts cost (contact-search.ts), for its Server-Timing header. */
  timing?: SearchResult['timing'];
}
