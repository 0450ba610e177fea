/**
 * The key copy holds each e-mail domain once and skips the chunks whose trigrams lack a needle's
 * (key-chunks.ts, key-domains.ts): its counts, pages and checks of candidates still equal a plain
 * scan of the keys for needles in a domain, across the `@`, before it, in e-mails with several
 * `@` or none, beyond the domains it keeps apart, and after writes that bring new domains.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactsRepository } from '../../src/server/repositories/contacts.js';
import { searchTerms } from '../../src/server/repositories/contact-search.js';
import { keyScan } from '../../src/server/repositories/key-scan.js';
import { scanCounts, scanIds } from './search-data.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

/** More distinct domains than the copy keeps apart (4,096): the later ones stay whole in the text. */
const email = (i: number) =>
  [`u${i}@d${i % 4500}.example`, `a${i}@b@c${i % 3}.org`, `noat${i}`, `Zoë${i}@Ñúñez${i % 4}.example`, null][i % 5] ??
  (i % 10 === 4 ? `U${i}@D${i % 4500}.EXAMPLE` : null);

const QUERIES = [
  '@d12.',
  'd12.ex',
  '9@d1',
  '2@d',
  '1@',
  '@',
  'u12',
  'example',
  'xample',
  '.example',
  'a7@b@c',
  '@b@c1',
  'b@c2.o',
  'noat1',
  'zoe1@nun',
  '@nunez3',
  'ez3.ex',
  'u9999@d999',
  'u9999@d',
  '@d4499.',
  '0@d4',
  'ana',
  '351',
];

function countsOf(ws: string) {
  return h.db.transaction(() => QUERIES.map((q) => keyScan(h.db).count(ws, searchTerms(q), 0)))();
}

describe('e-mail domains held once in the key copy', () => {
  it('counts, pages and checks candidates as the scan does, after writes too', () => {
    const repo = createContactsRepository(h.db);
    h.db.transaction(() => {
      for (let i = 0; i < 12_000; i++)
        repo.create(h.ws, String(3510000000 + i), { name: `Ana ${i}`, email: email(i), gender: null, status: true });
    })();
    keyScan(h.db).count(h.ws, { key: 'ana' }, 0); // starts the copy
    keyScan(h.db).catchUp();
    expect(countsOf(h.ws)).toEqual(scanCounts(h.db, h.ws, QUERIES));

    // Pages read on from an id in the copy, and the candidates the sieve would check.
    const idsOf = scanIds(h.db, h.ws, QUERIES);
    const after = h.db
      .prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT 1 OFFSET 5000')
      .pluck()
      .get(h.ws) as number;
    const all = h.db.prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id').pluck().all(h.ws) as number[];
    h.db.transaction(() => {
      for (const [i, q] of QUERIES.entries()) {
        const { key } = searchTerms(q);
        const expected = idsOf[i].filter((id) => id > after).slice(3, 53);
        const page = keyScan(h.db).page(h.ws, key, { after, skip: 3, limit: 50 }, 0);
        if (page !== undefined) expect({ q, page }).toEqual({ q, page: expected });
        expect({ q, among: keyScan(h.db).countAmong(h.ws, key, all, 0) }).toEqual({ q, among: idsOf[i].length });
      }
    })();

    // New domains arrive with writes: through the repository and behind its back.
    const some = all.filter((_, i) => i % 37 === 0);
    for (const id of some.slice(0, 3))
      repo.update(repo.find(h.ws, id)!, { name: 'Ana', email: `new${id}@fresh.example`, gender: null, status: true });
    expect(countsOf(h.ws)).toEqual(scanCounts(h.db, h.ws, QUERIES));
    h.db.prepare("UPDATE contacts SET email_key = 'x' || id || '@d12.example' WHERE workspace_id = ? AND id % 53 = 0").run(h.ws);
    keyScan(h.db).catchUp();
    expect(countsOf(h.ws)).toEqual(scanCounts(h.db, h.ws, QUERIES));
    expect(countsOf(h.ws)[QUERIES.indexOf('@d12.')]).toBeGreaterThan(100);
  });
});
