/**
 * The search index may lag behind the contacts table: an import writes its rows
 * without indexing them, and the index catches up behind it (workers/search-index.ts), so an
 * import no longer pays for the trigram index inline, which was most of its time.
 *
 * `search_index_state.indexed_upto` is the line: the index holds exactly the contacts whose id is
 * at or below it, and none above. Search asks the index for the rows up to the line and scans
 * the keys of the rows above it (contact-search.ts), so it stays exact while the index lags.
 * The index reads its content through the `contacts_indexed` view (the contacts up to the
 * line), so FTS5's own integrity check and rebuild see the same rows the index holds; the
 * update and delete triggers touch the index only for rows it holds.
 *
 * The line starts above every id ever given (the index is complete here); the index is
 * rebuilt once from the view, with the merge setting of migration 003.
 */
export const sql = /* sql */ `
DROP TRIGGER IF EXISTS contacts_fts_ad;
DROP TRIGGER IF EXISTS contacts_fts_au;
DROP TABLE IF EXISTS contacts_fts;

CREATE TABLE search_index_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  indexed_upto INTEGER NOT NULL
);
INSERT INTO search_index_state (id, indexed_upto)
  VALUES (1, max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'contacts'), 0), coalesce((SELECT max(id) FROM contacts), 0)));

CREATE VIEW contacts_indexed AS
  SELECT id, name_key, number, coalesce(email_key, '') AS email_key FROM contacts
   WHERE id <= (SELECT indexed_upto FROM search_index_state);

CREATE VIRTUAL TABLE contacts_fts USING fts5(
  name_key, number, email_key, content='contacts_indexed', content_rowid='id', tokenize='trigram case_sensitive 1'
);
CREATE TRIGGER contacts_fts_ad AFTER DELETE ON contacts
  WHEN old.id <= (SELECT indexed_upto FROM search_index_state) BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name_key, number, email_key) VALUES ('delete', old.id, old.name_key, old.number, coalesce(old.email_key, ''));
END;
CREATE TRIGGER contacts_fts_au AFTER UPDATE OF name_key, number, email_key ON contacts
  WHEN old.id <= (SELECT indexed_upto FROM search_index_state) BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name_key, number, email_key) VALUES ('delete', old.id, old.name_key, old.number, coalesce(old.email_key, ''));
  INSERT INTO contacts_fts (rowid, name_key, number, email_key) VALUES (new.id, new.name_key, new.number, coalesce(new.email_key, ''));
END;
INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild');
INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('automerge', 16);
`;
