/**
 * Every error of an import is kept (decisions.md §9): one row each in contact_import_errors, in
 * the order the import noted them (`seq`), served by GET .../contact-imports/{id}/errors. The
 * import's own `errors` stays the first 100, and `errors_total` counts them all.
 *
 * An error now says which spreadsheet row it is about (`row`), the line where that row starts
 * (`line`) and whether the row was skipped (`failed`). Imports made before knew only the line (then
 * called `row`) and kept their first 100 errors: those are carried over with line = row, and a note
 * (row 1 or the whole file, a group created) marked as such.
 */
import type { Db } from '../db.js';

const CREATED_GROUP = /^The contact group ".*" did not exist and was created/;

export function run(db: Db): void {
  db.exec(`
    ALTER TABLE contact_imports ADD COLUMN errors_total INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE contact_import_errors (
      import_id INTEGER NOT NULL REFERENCES contact_imports(id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      row INTEGER NOT NULL,
      line INTEGER NOT NULL,
      message TEXT NOT NULL,
      failed INTEGER NOT NULL,
      PRIMARY KEY (import_id, seq)
    ) WITHOUT ROWID;
  `);
  const imports = db.prepare<[], { id: number; errors: string }>("SELECT id, errors FROM contact_imports WHERE errors <> '[]'").all();
  const insert = db.prepare('INSERT INTO contact_import_errors (import_id, seq, row, line, message, failed) VALUES (?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE contact_imports SET errors = ?, errors_total = ? WHERE id = ?');
  for (const { id, errors } of imports) {
    const old = JSON.parse(errors) as Array<{ row: number; message: string }>;
    const now = old.map(({ row, message }) => ({ row, line: row, message, failed: row > 1 && !CREATED_GROUP.test(message) }));
    now.forEach((error, index) => insert.run(id, index + 1, error.row, error.line, error.message, error.failed ? 1 : 0));
    update.run(JSON.stringify(now), now.length, id);
  }
}
