/**
 * The copy of a workspace's search keys (key-scan.ts) counts exactly what a scan of the folded
 * text counts, or does not answer: after its build, across creates, imports, updates, deletes
 * (through the repository and behind its back), a rolled-back transaction, a workspace's
 * deletion, another connection's commit, and many rows arriving at once. Small sizes: the
 * threshold of MIN_ROWS contacts is lowered to 0 here; the speed is bench/search.mjs's.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactsRepository } from '../../src/server/repositories/contacts.js';
import { createContactSearch, searchTerms } from '../../src/server/repositories/contact-search.js';
import { createSearchIndex } from '../../src/server/repositories/search-index.js';
import { keyScan } from '../../src/server/repositories/key-scan.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { importRows as importInto, numberOf, scanCounts as scanCountsIn, write } from './search-data.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const QUERIES = [
  'ana',
  'a',
  'an',
  'silva 1',
  'jose',
  'ÁLVAREZ',
  'elodie',
  'strasse',
  'ines',
  'zoe',
  'ñúñez',
  'οδοσ',
  '😀',
  '@mail3',
  'mail',
  '.example',
  '351',
  '79',
  'user1',
  ' 1',
  'xyz',
  '\u0301',
  // Written as numbers are: the text in any key, or the digits in the number.
  '+351 000',
  '(351) 00-1',
  '0.7',
  '1 1',
  '9 ',
];

const importRows = (workspaceId: string, from: number, to: number) => importInto(h.db, workspaceId, from, to);
const scanCounts = (workspaceId: string, queries: string[]) => scanCountsIn(h.db, workspaceId, queries);
const scanCount = (workspaceId: string, query: string) => scanCounts(workspaceId, [query])[0];

/** Every query's count from the copy, in one read transaction as a search makes it. */
const counts = (workspaceId: string) => h.db.transaction(() => QUERIES.map((q) => keyScan(h.db).count(workspaceId, searchTerms(q), 0)))();
const expected = (workspaceId: string) => scanCounts(workspaceId, QUERIES);

describe('the key copy counts what a scan counts', () => {
  it('answers nothing until built, then exactly, across creates, imports, updates and deletes', () => {
    const repo = createContactsRepository(h.db);
    const other = createWorkspacesRepository(h.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
    importRows(h.ws, 0, 6000); // six chunks
    importRows(other, 6000, 6600);
    expect(counts(h.ws).every((n) => n === undefined)).toBe(true);
    keyScan(h.db).catchUp();
    expect(counts(h.ws)).toEqual(expected(h.ws));

    // A few creates: read in by the search itself. An update and a delete in the middle of a chunk.
    for (let i = 20_000; i < 20_040; i++) repo.create(h.ws, numberOf(i), write(i));
    const [first, second] = h.db
      .prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT 2 OFFSET 3500')
      .pluck()
      .all(h.ws) as number[];
    repo.update(repo.find(h.ws, first)!, { name: 'Zoë Álvarez', email: 'ANA@MAIL3.example', gender: null, status: true });
    repo.delete(h.ws, second);
    expect(counts(h.ws)).toEqual(expected(h.ws));

    // Behind the repository's back, on the same connection: the triggers mark the chunks.
    h.db.prepare("UPDATE contacts SET name_key = 'ana ana', email_key = NULL WHERE workspace_id = ? AND id % 97 = 0").run(h.ws);
    h.db.prepare('DELETE FROM contacts WHERE workspace_id = ? AND id % 89 = 0').run(h.ws);
    h.db.prepare('UPDATE contacts SET workspace_id = ? WHERE workspace_id = ? AND id % 83 = 0').run(other, h.ws);
    const counted = counts(h.ws);
    // Too many chunks changed for the search to read again itself: no answer, until caught up.
    expect(counted.every((n) => n === undefined)).toBe(true);
    keyScan(h.db).catchUp();
    expect(counts(h.ws)).toEqual(expected(h.ws));

    // Many rows at once (an import): no answer until the copy has read them.
    importRows(h.ws, 30_000, 32_100);
    expect(counts(h.ws).every((n) => n === undefined)).toBe(true);
    keyScan(h.db).catchUp();
    expect(counts(h.ws)).toEqual(expected(h.ws));
  });

  it("a rolled-back change, an id given again, another connection's commit and a deleted workspace leave no stale count", () => {
    const repo = createContactsRepository(h.db);
    importRows(h.ws, 0, 3000);
    keyScan(h.db).count(h.ws, { key: 'ana' }, 0);
    keyScan(h.db).catchUp();
    expect(counts(h.ws)).toEqual(expected(h.ws));

    const id = h.db.prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT 1 OFFSET 100').pluck().get(h.ws) as number;
    expect(() =>
      h.db.transaction(() => {
        repo.update(repo.find(h.ws, id)!, { name: 'Xyz', email: null, gender: null, status: true });
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(counts(h.ws)).toEqual(expected(h.ws));

    // An id given again below the line (ids only grow through the API; a hand-made insert need not).
    repo.delete(h.ws, id);
    expect(counts(h.ws)).toEqual(expected(h.ws));
    const insertBelow = (at: number, number: string) => {
      h.db
        .prepare(
          "INSERT INTO contacts (id, workspace_id, number, name, name_key, status, created_at, updated_at) VALUES (?, ?, ?, 'Xyz', 'xyz', 1, '', '')",
        )
        .run(at, h.ws, number);
      h.db.prepare("INSERT INTO contacts_fts (rowid, name_key, number, email_key) VALUES (?, 'xyz', ?, '')").run(at, number); // the index keeps up too
    };
    insertBelow(id, '999');
    expect(counts(h.ws)).toEqual(expected(h.ws));
    expect(counts(h.ws)[QUERIES.indexOf('xyz')]).toBe(1);
    const lowest = h.db.prepare('SELECT min(id) FROM contacts').pluck().get() as number;
    insertBelow(lowest - 1, '998');
    expect(counts(h.ws)[QUERIES.indexOf('xyz')]).toBe(2);

    // Another connection: its change is unknown here, so the copy is dropped and made again.
    const elsewhere = new Database(h.dbPath);
    elsewhere.prepare("UPDATE contacts SET name_key = 'xyz' WHERE workspace_id = ? AND id % 7 = 0").run(h.ws);
    elsewhere.close();
    expect(counts(h.ws).every((n) => n === undefined)).toBe(true);
    keyScan(h.db).catchUp();
    expect(counts(h.ws)).toEqual(expected(h.ws));
    expect(counts(h.ws)[QUERIES.indexOf('xyz')]).toBeGreaterThan(0);

    h.db.prepare('DELETE FROM workspaces WHERE id = ?').run(h.ws);
    expect(counts(h.ws)).toEqual(QUERIES.map(() => 0));
  });
});

describe('search totals from the key copy', () => {
  it('once the copy is built, a total is counted the cheapest way (a query in most contacts by the copy) and equals the scan', () => {
    const search = createContactSearch(h.db, { keyScanMinRows: 0 }).search;
    importRows(h.ws, 0, 4000);
    createSearchIndex(h.db).catchUp();
    expect(search(h.ws, 'examp', 0, 10).timing.source).toBe('index'); // starts the copy
    keyScan(h.db).catchUp();
    // In most contacts (or a short key, a scan of every contact otherwise): the copy. In one in
    // nine (`ana`): the index reads less than the copy's whole text.
    expect(search(h.ws, 'MAIL3', 0, 10).total).toBe(scanCount(h.ws, 'MAIL3'));
    for (const [query, source] of [
      ['mail', 'keys'],
      ['.example', 'keys'],
      ['a', 'keys'],
      ['ana', 'index'],
    ]) {
      const got = search(h.ws, query, 0, 10);
      expect({ query, total: got.total, source: got.timing.source }).toEqual({ query, total: scanCount(h.ws, query), source });
    }
    // Few matches, every trigram uncommon: the index. With a trigram in most contacts: the sieve.
    const sparse = search(h.ws, '3998@', 0, 10);
    expect({ total: sparse.total, source: sparse.timing.source }).toEqual({ total: 1, source: 'index' });
    const sieved = search(h.ws, 'user3998@', 0, 10);
    expect({ total: sieved.total, source: sieved.timing.source }).toEqual({ total: 1, source: 'sieve' });
    expect(search(h.ws, 'mail', 0, 10).timing.source).toBe('kept');
  });

  it('a search answer carries its page and total times in Server-Timing; a plain list does not', async () => {
    createContactsRepository(h.db).create(h.ws, numberOf(1), write(1));
    const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?search=ana` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['server-timing']).toMatch(/^page;dur=\d+\.\d\d;desc="start", total;dur=\d+\.\d\d;desc="(index|kept)"$/);
    const plain = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts` });
    expect(plain.headers['server-timing']).toBeUndefined();
  });
});
