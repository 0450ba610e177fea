/**
 * A search's later pages start where the page before them ended (search-marks.ts), and a query
 * with a trigram most contacts hold is counted from its uncommon trigrams (search-sieve.ts): both
 * give exactly what the rule gives (search-data.ts), whichever way the pages are walked, with
 * contacts whose keys hold a NUL (which the index finds wrongly), another workspace in the
 * index, and an import's contacts above the index's line. Small sizes: the key copy's threshold
 * is lowered to 0; the speed is bench/search.mjs's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactSearch } from '../../src/server/repositories/contact-search.js';
import { createSearchIndex } from '../../src/server/repositories/search-index.js';
import { keyScan } from '../../src/server/repositories/key-scan.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { importRows, scanIds } from './search-data.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

// Dense and sparse, short (scanned), number-looking, with a NUL-key neighbour (`nul`), and with
// trigrams in most contacts (`user`, `@mail`, `351`) beside uncommon ones.
const QUERIES = [
  'mail',
  'ana',
  'a',
  'nul',
  'ul by',
  'user12',
  'user999@',
  '@mail3.',
  '3510',
  '351001',
  '+351 00',
  'zzz',
  'éLODIE',
  'user3',
];
const PER_PAGE = 25;

function setUp(indexed: boolean, others = true) {
  const other = createWorkspacesRepository(h.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
  importRows(h.db, h.ws, 0, 1200);
  if (others) importRows(h.db, other, 1200, 1400);
  // Keys the index reads as `mail` (it skips the NUL): found by it for `mail`, wrongly.
  h.db.prepare("UPDATE contacts SET name_key = 'mai' || char(0) || 'l' WHERE email_key IS NULL AND id % 11 = 0").run();
  if (indexed) createSearchIndex(h.db).catchUp();
  importRows(h.db, h.ws, 1400, 1600); // above the index's line when it was caught up
  keyScan(h.db).count(h.ws, { key: 'mail' }, 0); // starts the key copy (a dense search does, once the index has caught up)
  keyScan(h.db).catchUp();
  return createContactSearch(h.db, { keyScanMinRows: 0 }).search;
}

describe('search pages after the first', () => {
  for (const [indexed, others, title] of [
    [true, true, 'another workspace in the index'],
    [true, false, 'the workspace alone in the index'],
    [false, true, 'the index behind every contact'],
  ] as const)
    it(`walked forward, backward and at random give the rule's matches (${title})`, () => {
      const search = setUp(indexed, others);
      const expected = scanIds(h.db, h.ws, QUERIES);
      for (const [q, query] of QUERIES.entries()) {
        const pages = Math.max(1, Math.ceil(expected[q].length / PER_PAGE));
        const walked: number[] = [];
        const from = new Set<string>();
        for (let page = 0; page < pages; page++) {
          const got = search(h.ws, query, page * PER_PAGE, PER_PAGE);
          expect(got.total, query).toBe(expected[q].length);
          walked.push(...got.ids);
          if (page > 0) from.add(got.timing.from);
        }
        expect(walked, query).toEqual(expected[q]);
        // From the mark in the index, or read on from it in the key copy (no number's digits there).
        if (pages > 1) expect([query, [...from].every((way) => way === 'mark' || way === 'copy')]).toEqual([query, true]);
        // Back and at random, with the marks of the walk kept: each page is the rule's slice.
        for (const page of [pages - 1, 0, Math.floor(pages / 2), 1, pages + 3]) {
          const offset = page * PER_PAGE;
          expect(search(h.ws, query, offset, PER_PAGE).ids, `${query} page ${page}`).toEqual(expected[q].slice(offset, offset + PER_PAGE));
          // Another page size: marks from the walk at 25 a page, reused for five.
          expect(search(h.ws, query, offset + 3, 5).ids, `${query} at ${offset + 3}`).toEqual(expected[q].slice(offset + 3, offset + 8));
        }
      }
    });

  it('a write between two pages starts the next page afresh, and it gives the matches as they are now', () => {
    const search = setUp(true);
    const first = search(h.ws, 'ana', 0, PER_PAGE);
    expect(search(h.ws, 'ana', PER_PAGE, PER_PAGE).timing.from).toBe('copy');
    h.db
      .prepare('DELETE FROM contacts WHERE id IN (SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT 3 OFFSET ?)')
      .run(h.ws, 5);
    const [expected] = scanIds(h.db, h.ws, ['ana']);
    const second = search(h.ws, 'ana', PER_PAGE, PER_PAGE);
    expect(second.timing.from).toBe('start');
    expect(second.ids).toEqual(expected.slice(PER_PAGE, 2 * PER_PAGE));
    expect(first.total - second.total).toBe(first.total - expected.length);
  });

  it('a later page says in Server-Timing that it was read on from where the page before ended', async () => {
    setUp(true);
    const url = `/api/v3/workspaces/${h.ws}/contacts?search=ana&per_page=${PER_PAGE}`;
    const timing = async (page: number) => String((await h.call({ method: 'GET', url: `${url}&page=${page}` })).headers['server-timing']);
    expect(await timing(1)).toMatch(/^page;dur=[\d.]+;desc="start", /);
    expect(await timing(2)).toMatch(/^page;dur=[\d.]+;desc="copy", /);
    expect(await timing(3)).toMatch(/^page;dur=[\d.]+;desc="copy", /);
  });
});

it('a chunk of the key copy over 64 KB of keys (a very long name) still counts and pages as the rule', () => {
  importRows(h.db, h.ws, 0, 600);
  h.db.prepare("UPDATE contacts SET name_key = printf('%.*c', 70000, 'q') || ' longname ' || id WHERE id % 100 = 7").run();
  keyScan(h.db).count(h.ws, { key: 'mail' }, 0);
  keyScan(h.db).catchUp();
  const search = createContactSearch(h.db, { keyScanMinRows: 0 }).search;
  const queries = ['longname', 'user5', 'qqq', 'mail'];
  for (const [q, ids] of scanIds(h.db, h.ws, queries).entries()) {
    expect([queries[q], keyScan(h.db).count(h.ws, { key: queries[q] }, 0)]).toEqual([queries[q], ids.length]);
    const walked = [0, 1, 2, 3].flatMap((page) => search(h.ws, queries[q], page * 4, 4).ids);
    expect([queries[q], walked]).toEqual([queries[q], ids.slice(0, 16)]);
  }
});

describe('the sieve', () => {
  it('counts a query with a trigram in most contacts from its uncommon trigrams, exactly as the rule', () => {
    const search = setUp(true);
    const expected = scanIds(h.db, h.ws, QUERIES);
    for (const [q, query] of QUERIES.entries()) {
      const got = search(h.ws, query, 0, 10);
      expect({ query, total: got.total, ids: got.ids }).toEqual({ query, total: expected[q].length, ids: expected[q].slice(0, 10) });
    }
    // Nothing kept from here (a write starts a new generation). `user` is in most contacts: in the
    // index (999), above its line (1499), in the other workspace only (1299).
    h.db.prepare("UPDATE counters SET count = count WHERE resource = 'contacts'").run();
    const sieved = ['user999@', 'user1499', 'user1299@'];
    expect(sieved.map((query) => [query, search(h.ws, query, 0, 10).total, search(h.ws, query, 0, 10).timing.source])).toEqual(
      scanIds(h.db, h.ws, sieved).map((ids, i) => [sieved[i], ids.length, 'kept']),
    );
    h.db.prepare("UPDATE counters SET count = count WHERE resource = 'contacts'").run();
    expect(sieved.map((query) => search(h.ws, query, 0, 10).timing.source)).toEqual(['sieve', 'sieve', 'sieve']);
  });
});
