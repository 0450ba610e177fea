/**
 * Ids are never handed out twice (decisions.md §7). A rowid table without
 * AUTOINCREMENT gives the next row max(id) + 1, so deleting the newest record
 * handed its id to the next one: a retried `templates delete 11` then deleted
 * another template. AUTOINCREMENT keeps a high-water mark per table in
 * sqlite_sequence, so an id is never reused anywhere (in a workspace above all).
 *
 * SQLite cannot add AUTOINCREMENT to a table, so each table with ids exposed by
 * the API is rebuilt (SQLite's documented procedure: new table, copy, drop,
 * rename) with every row keeping its id. The copy sets the high-water mark to the
 * largest id present; ids deleted before this migration above that one are not
 * known any more. Foreign keys are off meanwhile (the migration runner), so that
 * dropping the old table cascades nothing; triggers are dropped first and made
 * again last, so that no trigger names a table while it is being replaced.
 */
import type { Db } from '../db.js';

const TABLES_WITH_IDS = ['users', 'roles', 'contacts', 'contact_groups', 'contact_fields', 'contact_imports', 'labels', 'templates'];

const ID_COLUMN = /\bid INTEGER PRIMARY KEY,/;

export function run(db: Db): void {
  const schemaSql = (type: string, table?: string) =>
    db
      .prepare<[{ type: string; table: string | null }], { name: string; sql: string }>(
        'SELECT name, sql FROM sqlite_master WHERE type = @type AND (@table IS NULL OR tbl_name = @table) AND sql IS NOT NULL ORDER BY rowid',
      )
      .all({ type, table: table ?? null });
  const triggers = schemaSql('trigger');
  for (const trigger of triggers) db.exec(`DROP TRIGGER "${trigger.name}"`);

  for (const table of TABLES_WITH_IDS) {
    const [definition] = schemaSql('table').filter((entry) => entry.name === table);
    if (!definition || !ID_COLUMN.test(definition.sql)) throw new Error(`migration 004: unexpected definition of ${table}`);
    const indexes = schemaSql('index', table);
    const rebuilt = definition.sql
      .replace(new RegExp(`^CREATE TABLE "?${table}"?`), `CREATE TABLE ${table}_rebuilt`)
      .replace(ID_COLUMN, 'id INTEGER PRIMARY KEY AUTOINCREMENT,');
    db.exec(rebuilt);
    db.exec(`INSERT INTO ${table}_rebuilt SELECT * FROM ${table}`);
    db.exec(`DROP TABLE ${table}`);
    db.exec(`ALTER TABLE ${table}_rebuilt RENAME TO ${table}`);
    for (const index of indexes) db.exec(index.sql);
  }

  for (const trigger of triggers) db.exec(trigger.sql);
}
