/**
 * Migration 006: `users.manage` goes to what held every permission before it (Owner roles,
 * fully enabled workspaces, partner defaults naming everything), and to nothing else: a role
 * with `users.update` alone must not gain the power to change other users' passwords.
 */
import { expect, it } from 'vitest';
import { migrate } from '../../src/server/db.js';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { schemaAt } from './schema-at.js';

it('adds users.manage to what held every permission, and only there', () => {
  const db = schemaAt(5);
  const before = ALL_PERMISSIONS.filter((p) => p !== 'users.manage');
  const now = new Date().toISOString();
  const ws = (id: string, permissions: string[]) =>
    db
      .prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'W', ?, ?, ?)")
      .run(id, JSON.stringify(permissions), now, now);
  ws('00000000-0000-4000-8000-000000000001', before);
  ws('00000000-0000-4000-8000-000000000002', ['contacts.view', 'users.update']);
  const role = (name: string, permissions: string[]) =>
    db
      .prepare(
        "INSERT INTO roles (workspace_id, name, permissions, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', ?, ?, ?, ?)",
      )
      .run(name, JSON.stringify(permissions), now, now);
  role('Owner', before);
  role('Editor', ['users.view', 'users.update']);
  db.prepare(
    "INSERT INTO users (name, email, partner, partner_permissions, created_at, updated_at) VALUES ('P', 'p@x.io', 1, ?, ?, ?), ('Q', 'q@x.io', 1, ?, ?, ?)",
  ).run(JSON.stringify(before), now, now, JSON.stringify(['contacts.view']), now, now);

  migrate(db);
  const list = (sql: string) =>
    (db.prepare(sql).pluck().all() as string[]).map((json) => (JSON.parse(json) as string[]).includes('users.manage'));
  expect(list('SELECT permissions FROM workspaces ORDER BY id')).toEqual([true, false]);
  expect(list('SELECT permissions FROM roles ORDER BY id')).toEqual([true, false]);
  expect(list('SELECT partner_permissions FROM users ORDER BY id')).toEqual([true, false]);
  db.close();
});
