import Database from 'better-sqlite3';
import { migrations } from '../../src/server/migrations/index.js';

/** An empty in-memory database as wsm's migrations left it at `version`: what a migration test starts from. */
export function schemaAt(version: number): Database.Database {
  const db = new Database(':memory:');
  for (const migration of migrations.filter((m) => m.version <= version)) {
    if (migration.sql) db.exec(migration.sql);
    migration.run?.(db);
    db.pragma(`user_version = ${migration.version}`);
  }
  return db;
}
