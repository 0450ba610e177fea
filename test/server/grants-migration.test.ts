/**
 * Every permission reaches the built-in Owner of a workspace made by an older wsm: a database of
 * the first version and one of the previous version are migrated to the latest, and their Owner
 * role, workspace and partner defaults hold every permission there is (ALL_PERMISSIONS), while a
 * role that held less gains nothing. A new permission group without its migration's grant
 * (migrations/grants.ts) fails here, naming the step of docs/architecture.md's "Adding a resource".
 */
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { migrate } from '../../src/server/db.js';
import { ADDED, permissionsBefore } from '../../src/server/migrations/grants.js';
import { migrations } from '../../src/server/migrations/index.js';
import { schemaAt } from './schema-at.js';

const LATEST = migrations.at(-1)!.version;
const STEP =
  'step 9 of "Adding a resource" (docs/architecture.md): its line in migrations/grants.ts ADDED, and its migration calling grantAdded';

/** A database as wsm left it at `version`, with one workspace holding everything as of then. */
function databaseAt(version: number) {
  const db = schemaAt(version);
  const everything = JSON.stringify(permissionsBefore(version + 1));
  const at = '2025-01-01T00:00:00.000Z';
  const ws = '00000000-0000-4000-8000-000000000001';
  db.prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'Acme', ?, ?, ?)").run(
    ws,
    everything,
    at,
    at,
  );
  const builtin = (db.prepare('PRAGMA table_info(roles)').all() as { name: string }[]).some((column) => column.name === 'builtin');
  const role = db.prepare(
    `INSERT INTO roles (workspace_id, name, permissions, created_at, updated_at${builtin ? ', builtin' : ''}) VALUES (?, ?, ?, ?, ?${builtin ? ', ?' : ''})`,
  );
  role.run(ws, 'Owner', everything, at, at, ...(builtin ? [1] : []));
  role.run(ws, 'Viewer', JSON.stringify(['contacts.view']), '2025-01-02T00:00:00.000Z', at, ...(builtin ? [0] : []));
  db.prepare(
    "INSERT INTO users (name, email, partner, partner_permissions, created_at, updated_at) VALUES ('Pat', 'pat@example.com', 1, ?, ?, ?)",
  ).run(everything, at, at);
  return db;
}

const permissionsOf = (db: Database.Database, sql: string) => JSON.parse(db.prepare(sql).pluck().get() as string) as string[];
const missing = (held: string[]) => ALL_PERMISSIONS.filter((name) => !held.includes(name));

describe('permissions granted by the migrations', () => {
  it('every permission is added by one migration, once', () => {
    const added = Object.values(ADDED).flat();
    expect(ALL_PERMISSIONS.filter((name) => !added.includes(name)).map((name) => `${name}: no migration grants it; ${STEP}`)).toEqual([]);
    expect(added.filter((name) => !(ALL_PERMISSIONS as string[]).includes(name))).toEqual([]);
    expect(new Set(added).size).toBe(added.length);
  });

  for (const [what, version] of [
    ['the first version', 1],
    ['the previous version', LATEST - 1],
  ] as const) {
    it(`a database of ${what} (${version}), migrated, gives its Owner, workspace and partner defaults every permission, and nothing to a lesser role`, () => {
      const db = databaseAt(version);
      migrate(db);
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST);
      const owner = permissionsOf(db, "SELECT permissions FROM roles WHERE name = 'Owner' AND builtin = 1");
      expect(missing(owner).map((name) => `the Owner lacks ${name}: ${STEP}`)).toEqual([]);
      expect(missing(permissionsOf(db, 'SELECT permissions FROM workspaces'))).toEqual([]);
      expect(missing(permissionsOf(db, 'SELECT partner_permissions FROM users'))).toEqual([]);
      expect(permissionsOf(db, "SELECT permissions FROM roles WHERE name = 'Viewer'")).toEqual(['contacts.view']);
      db.close();
    });
  }
});
