/**
 * Search folds case for all of Unicode and ignores accents (decisions.md §3; search-key.ts).
 * The trigram index folded case by its own rules while the LIKE that checked its matches folded
 * A–Z only, so `ÑÚÑEZ` did not find `Ñúñez`. Each contact carries its folded keys
 * (`name_key`, `email_key`, written by the server with the one folding function), and the index
 * holds exactly those keys with no folding of its own (`case_sensitive 1`): the index and a plain
 * scan of the keys give the same rows.
 *
 * Existing contacts get their keys here, and their text is stored in composed form (NFC), as
 * every write stores it (schemas/contacts.ts); the index is rebuilt from the keys, with the merge
 * setting of migration 003.
 */
import type { Db } from '../db.js';
import { searchKey } from '../repositories/search-key.js';

const nfc = (text: string) => text.normalize('NFC');

export function run(db: Db): void {
  db.exec(`
    DROP TRIGGER IF EXISTS contacts_fts_ad;
    DROP TRIGGER IF EXISTS contacts_fts_au;
    DROP TABLE IF EXISTS contacts_fts;
    ALTER TABLE contacts ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
    ALTER TABLE contacts ADD COLUMN email_key TEXT;
  `);
  // In slices of ids: a connection cannot write while it reads, and a million rows need not be held at once.
  const rows = db.prepare<[number], { id: number; name: string; email: string | null }>(
    'SELECT id, name, email FROM contacts WHERE id > ? ORDER BY id LIMIT 10000',
  );
  const write = db.prepare('UPDATE contacts SET name = ?, email = ?, name_key = ?, email_key = ? WHERE id = ?');
  for (let slice = rows.all(0); slice.length > 0; slice = rows.all(slice.at(-1)!.id)) {
    for (const row of slice) {
      const name = nfc(row.name);
      const email = row.email === null ? null : nfc(row.email);
      write.run(name, email, searchKey(name), email === null ? null : searchKey(email), row.id);
    }
  }
  // Field values written in another form than NFC are stored composed too: only those with a
  // character outside printable ASCII can be one, and only those are read.
  const values = db
    .prepare<[], { contact_id: number; field_id: number; value: string }>(
      "SELECT contact_id, field_id, value FROM contact_field_values WHERE value GLOB '*[^ -~]*'",
    )
    .all();
  const writeValue = db.prepare('UPDATE contact_field_values SET value = ? WHERE contact_id = ? AND field_id = ?');
  for (const row of values) {
    if (nfc(row.value) !== row.value) writeValue.run(nfc(row.value), row.contact_id, row.field_id);
  }
  db.exec(`
    CREATE VIRTUAL TABLE contacts_fts USING fts5(
      name_key, number, email_key, content='contacts', content_rowid='id', tokenize='trigram case_sensitive 1'
    );
    CREATE TRIGGER contacts_fts_ad AFTER DELETE ON contacts BEGIN
      INSERT INTO contacts_fts (contacts_fts, rowid, name_key, number, email_key) VALUES ('delete', old.id, old.name_key, old.number, coalesce(old.email_key, ''));
    END;
    CREATE TRIGGER contacts_fts_au AFTER UPDATE OF name_key, number, email_key ON contacts BEGIN
      INSERT INTO contacts_fts (contacts_fts, rowid, name_key, number, email_key) VALUES ('delete', old.id, old.name_key, old.number, coalesce(old.email_key, ''));
      INSERT INTO contacts_fts (rowid, name_key, number, email_key) VALUES (new.id, new.name_key, new.number, coalesce(new.email_key, ''));
    END;
    INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild');
    INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('automerge', 16);
  `);
}
