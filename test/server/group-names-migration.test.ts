/**
 * Migration 015: group names stored before are composed (NFC), so that a name sent either way
 * names them; where the workspace already has the composed name (two groups that only look
 * alike), both are left as they are.
 */
import { expect, it } from 'vitest';
import { migrate } from '../../src/server/db.js';
import { schemaAt } from './schema-at.js';

const COMPOSED = 'Caf\u00e9';
const DECOMPOSED = 'Cafe\u0301';

it('composes the group names stored before, where the composed name is free in the workspace', () => {
  const db = schemaAt(14);
  const now = new Date().toISOString();
  const [first, second] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
  const workspace = db.prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'W', '[]', ?, ?)");
  workspace.run(first, now, now);
  workspace.run(second, now, now);
  const group = db.prepare('INSERT INTO contact_groups (workspace_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
  group.run(first, DECOMPOSED, now, now);
  group.run(first, 'Plain', now, now);
  group.run(second, COMPOSED, now, now);
  group.run(second, DECOMPOSED, now, now);

  migrate(db);
  expect(db.prepare('SELECT workspace_id, name FROM contact_groups ORDER BY id').all()).toEqual([
    { workspace_id: first, name: COMPOSED },
    { workspace_id: first, name: 'Plain' },
    { workspace_id: second, name: COMPOSED },
    { workspace_id: second, name: DECOMPOSED },
  ]);
  db.close();
});
