/**
 * Migration 010 (decisions.md §8): status moves from the person to each membership (a user
 * deactivated before stays shut out everywhere), and the role each workspace was created with is
 * marked built in, even where it was renamed since.
 */
import { expect, it } from 'vitest';
import { migrate } from '../../src/server/db.js';
import { schemaAt } from './schema-at.js';

it("gives every membership its user's status and marks the first role of each workspace built in", () => {
  const db = schemaAt(9);
  const created = '2026-01-01T00:00:00.000Z';
  const later = '2026-02-01T00:00:00.000Z';
  db.prepare(
    "INSERT INTO users (id, name, email, status, created_at, updated_at) VALUES (1, 'On', 'on@x.io', 1, ?, ?), (2, 'Off', 'off@x.io', 0, ?, ?)",
  ).run(created, created, created, created);
  const ws = (id: string) =>
    db
      .prepare("INSERT INTO workspaces (id, name, created_by, permissions, created_at, updated_at) VALUES (?, 'W', 1, '[]', ?, ?)")
      .run(id, created, created);
  ws('00000000-0000-4000-8000-000000000001');
  ws('00000000-0000-4000-8000-000000000002');
  const role = (id: number, workspace: string, name: string, at: string) =>
    db
      .prepare("INSERT INTO roles (id, workspace_id, name, permissions, created_at, updated_at) VALUES (?, ?, ?, '[]', ?, ?)")
      .run(id, workspace, name, at, at);
  role(1, '00000000-0000-4000-8000-000000000001', 'Boss', created); // the Owner role, renamed
  role(2, '00000000-0000-4000-8000-000000000001', 'Agent', later);
  role(3, '00000000-0000-4000-8000-000000000002', 'Owner', created);
  const member = (workspace: string, user: number, roleId: number) =>
    db
      .prepare('INSERT INTO memberships (workspace_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)')
      .run(workspace, user, roleId, created);
  member('00000000-0000-4000-8000-000000000001', 1, 1);
  member('00000000-0000-4000-8000-000000000001', 2, 2);
  member('00000000-0000-4000-8000-000000000002', 2, 3);

  migrate(db);
  expect(db.prepare('SELECT workspace_id, user_id, status FROM memberships ORDER BY workspace_id, user_id').all()).toEqual([
    { workspace_id: '00000000-0000-4000-8000-000000000001', user_id: 1, status: 1 },
    { workspace_id: '00000000-0000-4000-8000-000000000001', user_id: 2, status: 0 },
    { workspace_id: '00000000-0000-4000-8000-000000000002', user_id: 2, status: 0 },
  ]);
  expect(db.prepare('SELECT id, builtin FROM roles ORDER BY id').all()).toEqual([
    { id: 1, builtin: 1 },
    { id: 2, builtin: 0 },
    { id: 3, builtin: 1 },
  ]);
  expect(db.prepare("SELECT count(*) FROM pragma_table_info('users') WHERE name = 'status'").pluck().get()).toBe(0);
  db.close();
});
