/**
 * Search for all of Unicode: case-insensitive beyond A–Z and accent-insensitive,
 * NUL treated as any other character, text stored as NFC; and migration 009 carrying a database
 * made by the previous schema over to it. The exactness against a scan: scale.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { migrate } from '../../src/server/db.js';
import { migrations } from '../../src/server/migrations/index.js';
import { createContactsRepository } from '../../src/server/repositories/contacts.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { schemaAt } from './schema-at.js';

let h: Harness;
const ids: Record<string, number> = {};
beforeAll(async () => {
  h = await createHarness();
  const people: Array<[string, string, string | null]> = [
    ['zoe', 'Zoë Ñúñez', 'zoe@example.com'],
    ['plain', 'Zoe Nunez', null],
    ['decomposed', 'Zoe\u0308 Chen', null], // ë typed as e + a combining diaeresis
    ['german', 'Straße', 'ELODIE@Example.COM'],
    ['greek', 'ΟΔΟΣ Σοφίας', null],
    ['nul', 'nul\u0000byte', null],
    ['other', 'Bob', null],
  ];
  for (const [key, name, email] of people) {
    const number = String(15550001000 + Object.keys(ids).length);
    ids[key] = (await h.create(`/api/v3/workspaces/${h.ws}/contacts`, { number, name, ...(email ? { email } : {}) })).id;
  }
});
afterAll(async () => {
  await h?.close();
});

async function search(query: string) {
  const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?search=${encodeURIComponent(query)}&per_page=100` });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  const found = body.data.map((c: { id: number }) => Object.keys(ids).find((key) => ids[key] === c.id));
  expect(body.meta.total).toBe(found.length);
  return found;
}

describe('search folds case for all of Unicode and ignores accents', () => {
  it('ZOË and ÑÚÑEZ find "Zoë Ñúñez"; zoe finds every Zoe, with an accent, without, or typed decomposed', async () => {
    expect(await search('ZOË')).toEqual(['zoe', 'plain', 'decomposed']);
    expect(await search('ÑÚÑEZ')).toEqual(['zoe', 'plain']);
    expect(await search('zoe')).toEqual(['zoe', 'plain', 'decomposed']);
    expect(await search('zoë ñ')).toEqual(['zoe', 'plain']); // accent-insensitive both ways
  });

  it('folds beyond accents: ß and SS, final and medial sigma, e-mail case', async () => {
    expect(await search('STRASSE')).toEqual(['german']);
    expect(await search('strasse')).toEqual(['german']);
    expect(await search('οδοσ σοφ')).toEqual(['greek']);
    expect(await search('élodie@exam')).toEqual(['german']);
    expect(await search('example.com')).toEqual(['zoe', 'german']);
    expect(await search('Σ')).toEqual(['greek']);
  });

  it('a NUL is a character like any other: no 500, no match-all', async () => {
    expect(await search('nul\u0000byte')).toEqual(['nul']);
    expect(await search('l\u0000b')).toEqual(['nul']);
    expect(await search('\u0000')).toEqual(['nul']);
  });
});

describe('text is stored as NFC', () => {
  it('a name sent decomposed comes back composed, and so do field values', async () => {
    const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts/${ids.decomposed}` });
    expect(res.json().data.name).toBe('Zoë Chen');
    expect(res.json().data.name).toBe('Zoe\u0308 Chen'.normalize('NFC'));
    await h.create(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'city' });
    const made = await h.create(`/api/v3/workspaces/${h.ws}/contacts`, {
      number: '15550009999',
      name: 'N',
      fields: { city: '  Sa\u0303o Paulo ' },
    });
    expect(made.fields).toEqual({ city: 'São Paulo' });
  });
});

it('migration 009 carries a database of the previous schema over: keys, NFC, the index rebuilt', () => {
  const db = schemaAt(8);
  const ws = '6d1c8f1e-2c4b-4f6a-9a51-3a2f4f1d9c11';
  const now = new Date().toISOString();
  db.prepare("INSERT INTO workspaces (id, name, permissions, created_at, updated_at) VALUES (?, 'W', '[]', ?, ?)").run(ws, now, now);
  const insert = db.prepare('INSERT INTO contacts (workspace_id, number, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const index = db.prepare('INSERT INTO contacts_fts (rowid, name, number, email) VALUES (?, ?, ?, ?)');
  const old: Array<[string, string | null]> = [
    ['Zoe\u0308 N\u0303u\u0301n\u0303ez', 'ZOE@EXAMPLE.COM'],
    ['Bob Stone', null],
    ['Straße', 'x@y.io'],
  ];
  old.forEach(([name, email], i) => {
    const id = Number(insert.run(ws, `1555000000${i}`, name, email, now, now).lastInsertRowid);
    index.run(id, name, `1555000000${i}`, email ?? '');
  });
  // Under the previous schema, ÑÚÑEZ does not find "Zoë Ñúñez": its index check folded A–Z only.
  migrate(db);
  expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
  expect(db.prepare('SELECT name FROM contacts ORDER BY id').pluck().all()).toEqual(['Zoë Ñúñez', 'Bob Stone', 'Straße']);
  db.prepare("INSERT INTO contacts_fts (contacts_fts) VALUES ('integrity-check')").run();
  const repo = createContactsRepository(db);
  const found = (query: string) => repo.search(ws, query, 0, 10).ids;
  expect(found('ÑÚÑEZ')).toEqual([1]);
  expect(found('zoe@')).toEqual([1]);
  expect(found('strasse')).toEqual([3]);
  expect(found('bob')).toEqual([2]);
  // New writes keep the keys: an update and a delete keep the index whole.
  repo.update(repo.find(ws, 2)!, { name: 'Zoë Stone', email: null, gender: null, status: true });
  repo.delete(ws, 3);
  expect(found('zoe')).toEqual([1, 2]);
  db.prepare("INSERT INTO contacts_fts (contacts_fts) VALUES ('integrity-check')").run();
  db.close();
});

describe('a NUL inside a name or e-mail joins no substring across it', () => {
  // FTS5's trigram tokenizer skips a NUL: without the check, `ana` finds `a<NUL>na` in the index.
  let own: Harness;
  beforeAll(async () => {
    own = await createHarness();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('leaves such contacts out of the page and the total, in one workspace and beside another', () => {
    const repo = createContactsRepository(own.db);
    const made: Record<string, number> = {};
    const add = (key: string, workspace: string, name: string, email: string | null = null) => {
      made[key] = repo.create(workspace, String(15551000000 + Object.keys(made).length), { name, email, gender: null, status: true }).id;
    };
    for (let i = 0; i < 4; i++) add(`ana${i}`, own.ws, `Ana ${i}`);
    add('split', own.ws, 'a\u0000na');
    add('splitMail', own.ws, 'Mail', 'b\u0000anana@example.com');
    add('real', own.ws, 'ban\u0000ana'); // holds "ana" after its NUL
    for (let i = 4; i < 6; i++) add(`ana${i}`, own.ws, `Ana ${i}`);
    const expected = ['ana0', 'ana1', 'ana2', 'ana3', 'splitMail', 'real', 'ana4', 'ana5'].map((key) => made[key]);
    const check = () => {
      for (const [offset, limit] of [
        [0, 100],
        [0, 3],
        [3, 3],
        [6, 3],
        [8, 3],
      ]) {
        expect(repo.search(own.ws, 'ANA', offset, limit)).toMatchObject({
          ids: expected.slice(offset, offset + limit),
          total: expected.length,
        });
      }
      expect(repo.search(own.ws, 'bana', 0, 100)).toMatchObject({ ids: [], total: 0 });
      expect(repo.search(own.ws, 'a\u0000na', 0, 100)).toMatchObject({ ids: [made.split], total: 1 });
    };
    check(); // the workspace holds every contact: the index alone counts
    const other = createWorkspacesRepository(own.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
    repo.create(other, '15551999999', { name: 'a\u0000na ana', email: null, gender: null, status: true });
    check(); // another workspace's contacts: each match checked against the workspace
  });
});
