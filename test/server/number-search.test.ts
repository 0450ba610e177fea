/**
 * A search for a whole number (number-sieve.ts) is answered from the contacts holding its rarest
 * trigrams, checked against their keys: page by page and in its total, exactly what the rule gives
 * (search-data.ts), with the number in a name or an e-mail, inside a longer number, above the
 * index's line, in another workspace, beside contacts whose keys hold a NUL; and a number too
 * many contacts hold is searched as any text, with the same answer. Server-Timing names the way.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactSearch } from '../../src/server/repositories/contact-search.js';
import { createSearchIndex } from '../../src/server/repositories/search-index.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { importRows, numberOf, scanIds } from './search-data.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const setName = (ids: string, text: string) =>
  h.db.prepare(`UPDATE contacts SET name_key = name_key || ' ' || ? WHERE id IN (${ids})`).run(text);

/** 1,200 contacts indexed, 200 in another workspace, 200 above the index's line; numbers written into names and e-mails. */
function setUp() {
  const other = createWorkspacesRepository(h.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
  importRows(h.db, h.ws, 0, 1200);
  importRows(h.db, other, 1200, 1400);
  h.db.prepare("UPDATE contacts SET name_key = 'mai' || char(0) || 'l' WHERE email_key IS NULL AND id % 11 = 0").run();
  createSearchIndex(h.db).catchUp();
  importRows(h.db, h.ws, 1400, 1600); // above the index's line
  const ids = (from: number, to: number) => `SELECT id FROM contacts WHERE number IN (${[from, to].map((i) => `'${numberOf(i)}'`)})`;
  // A number in names below and above the line, and in an e-mail; a number inside a longer number.
  setName(`${ids(3, 700)} UNION ${ids(1450, 1500)}`, 'ticket 4440001111');
  h.db.prepare(`UPDATE contacts SET email_key = '4440002222@x.example' WHERE id IN (${ids(5, 1550)})`).run();
  h.db.prepare(`UPDATE contacts SET number = '9' || number WHERE number = ?`).run(numberOf(40));
  h.db.prepare('UPDATE contacts SET number = ? WHERE number = ?').run(`12${numberOf(2).slice(3)}9`, numberOf(60));
  return createContactSearch(h.db, { keyScanMinRows: 0 }).search;
}

const WHOLE = [
  numberOf(7), // in the index
  numberOf(1500), // above the index's line
  numberOf(1300), // in the other workspace only
  numberOf(40), // inside the longer number 9…
  '+351 000 7919', // written with separators: its text, and its digits in the number
  `(${numberOf(8).slice(0, 3)}) ${numberOf(8).slice(3, 6)}-${numberOf(8).slice(6)}`,
  '4440001111', // in names, both sides of the line
  '4440002222', // in e-mails
  numberOf(2).slice(3), // seven digits: a part of two numbers
  '5550009999', // nobody's
];

describe('a whole-number search', () => {
  it('gives the rule’s matches and total on every page, from the rarest trigrams’ candidates', () => {
    const search = setUp();
    const expected = scanIds(h.db, h.ws, WHOLE);
    for (const [q, query] of WHOLE.entries()) {
      const walked: number[] = [];
      for (let offset = 0; offset < Math.max(1, expected[q].length) + 2; offset += 2) {
        const got = search(h.ws, query, offset, 2);
        expect([query, offset, got.total, got.timing.source]).toEqual([query, offset, expected[q].length, 'sieve']);
        walked.push(...got.ids);
      }
      expect([query, walked]).toEqual([query, expected[q]]);
    }
    // Checks that the cases above are what they say: names across the line, a longer number, several numbers.
    expect(expected.map((ids) => ids.length)).toEqual([1, 1, 0, 1, 1, 1, 4, 2, 2, 0]);
  });

  it('leaves a number too many contacts hold to the index, with the same answer', () => {
    importRows(h.db, h.ws, 0, 4200);
    h.db.prepare("UPDATE contacts SET name_key = name_key || ' 5550123' WHERE id % 50 <> 0").run();
    createSearchIndex(h.db).catchUp();
    const search = createContactSearch(h.db, { keyScanMinRows: 0 }).search;
    const [expected] = scanIds(h.db, h.ws, ['5550123']);
    const got = search(h.ws, '5550123', 4000, 100);
    expect([got.total, got.ids, got.timing.source]).toEqual([expected.length, expected.slice(4000, 4100), 'index']);
    expect(expected.length).toBeGreaterThan(4000);
  });

  it('says in Server-Timing that its total came from the sieve', async () => {
    setUp();
    const url = `/api/v3/workspaces/${h.ws}/contacts?search=${numberOf(7)}`;
    const answer = await h.call({ method: 'GET', url });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().meta.total).toBe(1);
    expect(String(answer.headers['server-timing'])).toMatch(/, total;dur=[\d.]+;desc="sieve"$/);
  });
});
