/**
 * Migration 014: every import error is kept in contact_import_errors. An import made before keeps
 * the errors it had (its first 100), each now with `line` (= its old `row`, which was the line)
 * and `failed` (false for a note: row 1, the whole file, a group created), and its errors_total.
 */
import { expect, it } from 'vitest';
import { migrate } from '../../src/server/db.js';
import { schemaAt } from './schema-at.js';

it('carries the errors of earlier imports over, marking the notes', () => {
  const db = schemaAt(13);
  const now = new Date().toISOString();
  const ws = '00000000-0000-4000-8000-000000000001';
  db.prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'W', '[]', ?, ?)").run(ws, now, now);
  const old = [
    { row: 1, message: 'Unknown column "x" was ignored.' },
    { row: 3, message: 'The number must be a phone number of 7 to 15 digits.' },
    { row: 4, message: 'The contact group "VIP" did not exist and was created (id 2).' },
  ];
  const insert = db.prepare(
    "INSERT INTO contact_imports (workspace_id, name, file_name, stored_path, errors, created_at, updated_at) VALUES (?, 'I', 'f.csv', '/x', ?, ?, ?)",
  );
  insert.run(ws, JSON.stringify(old), now, now);
  insert.run(ws, '[]', now, now);

  migrate(db);
  const expected = [
    { row: 1, line: 1, message: 'Unknown column "x" was ignored.', failed: false },
    { row: 3, line: 3, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
    { row: 4, line: 4, message: 'The contact group "VIP" did not exist and was created (id 2).', failed: false },
  ];
  expect(db.prepare('SELECT errors, errors_total FROM contact_imports ORDER BY id').all()).toEqual([
    { errors: JSON.stringify(expected), errors_total: 3 },
    { errors: '[]', errors_total: 0 },
  ]);
  const kept = db.prepare('SELECT import_id, seq, row, line, message, failed FROM contact_import_errors ORDER BY seq').all();
  expect(kept).toEqual(expected.map((error, index) => ({ import_id: 1, seq: index + 1, ...error, failed: error.failed ? 1 : 0 })));
  db.close();
});
