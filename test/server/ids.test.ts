/**
 * decisions.md §7: ids are never handed out twice in a workspace. For every resource with an
 * integer id: create two, delete the newest, create again: the new record gets a new id and the
 * deleted id stays a 404. Then migration 004 on a database written before it: every id kept,
 * the search index and the counters still right, and the ids deleted before it not reused either.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, type Harness } from './harness.js';
import { migrate } from '../../src/server/db.js';
import { migrations } from '../../src/server/migrations/index.js';
import { multipart, utility } from './template-fixtures.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const wsUrl = (suffix: string) => `/api/v3/workspaces/${h.ws}${suffix}`;
const TEMPLATE_404 = { success: false, message: 'Template not found.', status: 404 };

interface Resource {
  name: string;
  path: string;
  /** Creates one record (n makes it distinct) and returns its id. */
  create(n: number): Promise<number>;
  /** Removes it the way a user can (the API, or the database where the API offers no delete). */
  remove(id: number): Promise<void>;
  notFound: object;
}

async function deleteThroughApi(path: string, id: number) {
  const res = await h.call({ method: 'DELETE', url: wsUrl(`${path}/${id}`) });
  expect(res.statusCode, res.body).toBe(200);
}
const created = async (url: string, payload: Record<string, unknown>) => (await h.create(url, payload)).id as number;

const resources = (): Resource[] => [
  {
    name: 'contacts',
    path: '/contacts',
    create: (n) => created(wsUrl('/contacts'), { number: `1555000${String(n).padStart(4, '0')}`, name: `C${n}` }),
    remove: (id) => deleteThroughApi('/contacts', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'contact groups',
    path: '/contact-groups',
    create: (n) => created(wsUrl('/contact-groups'), { name: `Group ${n}` }),
    remove: (id) => deleteThroughApi('/contact-groups', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'contact fields',
    path: '/contact-fields',
    create: (n) => created(wsUrl('/contact-fields'), { name: `field_${'abcdefghij'[n]}` }),
    remove: (id) => deleteThroughApi('/contact-fields', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'contact imports',
    path: '/contact-imports',
    async create(n) {
      const form = multipart(
        [['name', `Import ${n}`]],
        [{ name: 'file', filename: 'p.csv', type: 'text/csv', bytes: Buffer.from('number\n15550000001\n') }],
      );
      const res = await h.call({ method: 'POST', url: wsUrl('/contact-imports'), ...form });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id;
    },
    remove: (id) => deleteThroughApi('/contact-imports', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'labels',
    path: '/labels',
    create: (n) => created(wsUrl('/labels'), { name: `Label ${n}` }),
    remove: (id) => deleteThroughApi('/labels', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'roles',
    path: '/roles',
    create: (n) => created(wsUrl('/roles'), { name: `Role ${n}` }),
    remove: (id) => deleteThroughApi('/roles', id),
    notFound: NOT_FOUND,
  },
  {
    name: 'templates',
    path: '/templates',
    create: (n) => created(wsUrl('/templates'), utility(`ids_${'abcdefghij'[n]}`)),
    remove: (id) => deleteThroughApi('/templates', id),
    notFound: TEMPLATE_404,
  },
  {
    name: 'users',
    path: '/users',
    async create(n) {
      const role = await created(wsUrl('/roles'), { name: `User role ${n}` });
      return created(wsUrl('/users'), { name: `U${n}`, email: `u${n}@example.com`, password: 'long enough', role_id: role });
    },
    // The API has no user delete; an operator removing one in the database is the same case.
    async remove(id) {
      h.db.prepare('DELETE FROM users WHERE id = ?').run(id);
    },
    notFound: NOT_FOUND,
  },
];

describe('ids are never reused', () => {
  for (const resource of resources()) {
    it(`${resource.name}: a deleted newest id is not handed out again and stays 404`, async () => {
      await resource.create(1);
      const newest = await resource.create(2);
      await resource.remove(newest);
      const next = await resource.create(3);
      expect(next).toBeGreaterThan(newest);
      const gone = await h.call({ method: 'GET', url: wsUrl(`${resource.path}/${newest}`) });
      expect({ status: gone.statusCode, body: gone.json() }).toEqual({ status: 404, body: resource.notFound });
    });
  }
});

describe('migration 004 on a database written before it', () => {
  it('keeps every id, the search index, the counters and the links between tables, and reuses no id afterwards', async () => {
    await h.close();
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const migration of migrations.filter((m) => m.version <= 3)) {
      db.exec(migration.sql!);
      db.pragma(`user_version = ${migration.version}`);
    }
    const ws = '6d1c8f1e-2c4b-4f6a-9a51-3a2f4f1d9c11';
    const now = new Date().toISOString();
    db.prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'W', '[]', ?, ?)").run(ws, now, now);
    const insertContact = db.prepare('INSERT INTO contacts (workspace_id, number, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const indexContact = db.prepare("INSERT INTO contacts_fts (rowid, name, number, email) VALUES (?, ?, ?, '')");
    for (let i = 1; i <= 5; i++) {
      const id = Number(insertContact.run(ws, `155500000${i}`, `Person ${i}`, now, now).lastInsertRowid);
      indexContact.run(id, `Person ${i}`, `155500000${i}`);
    }
    db.prepare('DELETE FROM contacts WHERE id = 2').run(); // a hole, kept as a hole
    db.prepare("INSERT INTO contact_groups (workspace_id, name, created_at, updated_at) VALUES (?, 'G', ?, ?)").run(ws, now, now);
    db.prepare('INSERT INTO contact_group_members (group_id, contact_id) VALUES (1, 5)').run();
    db.prepare("INSERT INTO labels (workspace_id, name, created_at, updated_at) VALUES (?, 'L1', ?, ?), (?, 'L2', ?, ?)").run(
      ws,
      now,
      now,
      ws,
      now,
      now,
    );
    const before = db.prepare('SELECT id, number, name FROM contacts ORDER BY id').all();

    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare('SELECT id, number, name FROM contacts ORDER BY id').all()).toEqual(before);
    expect(db.prepare('SELECT id FROM labels ORDER BY id').pluck().all()).toEqual([1, 2]);
    // The index (of the folded search keys since migration 009) still finds rows by their (kept) ids, and the counters still count.
    expect(db.prepare(`SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH '"person 4"'`).pluck().all()).toEqual([4]);
    expect(db.prepare("SELECT count FROM counters WHERE workspace_id = ? AND resource = 'contacts'").pluck().get(ws)).toBe(4);
    expect(db.prepare('SELECT contacts_count FROM contact_groups WHERE id = 1').pluck().get()).toBe(1);

    // The triggers came back: deleting contact 5 cascades, counts and unindexes.
    db.prepare('DELETE FROM contacts WHERE id = 5').run();
    expect(db.prepare('SELECT contacts_count FROM contact_groups WHERE id = 1').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count FROM counters WHERE workspace_id = ? AND resource = 'contacts'").pluck().get(ws)).toBe(3);
    expect(db.prepare(`SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH '"person 5"'`).pluck().all()).toEqual([]);
    // The newest (5) was deleted after the migration: the next contact is 6, not 5.
    const next = insertContact.run(ws, '1555000009', 'New', now, now).lastInsertRowid;
    expect(Number(next)).toBe(6);
    db.prepare('DELETE FROM labels WHERE id = 2').run();
    expect(
      Number(
        db.prepare("INSERT INTO labels (workspace_id, name, created_at, updated_at) VALUES (?, 'L3', ?, ?)").run(ws, now, now)
          .lastInsertRowid,
      ),
    ).toBe(3);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    h = undefined as unknown as Harness;
  });
});
