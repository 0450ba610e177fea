/**
 * The scale paths stay exact: checkpointed deep pages equal a plain OFFSET
 * query under inserts and deletes, indexed search equals a scan of the folded text, the
 * explicitly kept search index matches the table, and the cheap row count of
 * an import file equals what the parser yields. Small sizes only: big ones are in bench/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactsRepository, type ContactRow } from '../../src/server/repositories/contacts.js';
import { PAGE_STEP } from '../../src/server/repositories/contact-pages.js';
import { searchKey } from '../../src/server/repositories/search-key.js';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { createImportWriter } from '../../src/server/imports/writer.js';
import { createSearchIndex } from '../../src/server/repositories/search-index.js';
import { countDataRows, readCsvRows } from '../../src/api/import-csv.js';
import { searchedNumber } from '../../src/api/schemas/contacts.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const NAMES = [
  'Ana Silva',
  'Bruno Okafor',
  'José Álvarez',
  'ÉLODIE Moreau',
  'Grace_Hopper',
  'Hiro 100%',
  'Quote "Q" Lee',
  'straße Ïnes',
  'Zoë Ñúñez',
  'ΟΔΟΣ Θ',
  'nul\u0000byte',
];
const write = (i: number) => ({
  name: `${NAMES[i % NAMES.length]} ${i}`,
  email: i % 3 ? `user${i}@mail${i % 7}.example` : null,
  gender: null,
  status: true,
});
const numberOf = (i: number) => String(3510000000 + i * 7919);

function integrityCheck() {
  h.db.prepare("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)").run();
}

describe('scale: deep pages', () => {
  it('checkpointed pages equal a plain OFFSET query, and every row comes once, across inserts and deletes', () => {
    const repo = createContactsRepository(h.db);
    const other = createWorkspacesRepository(h.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
    const total = PAGE_STEP * 3 + 137;
    const writer = createImportWriter(h.db);
    // Two workspaces interleaved, by single creates and by an import batch.
    h.db.transaction(() => {
      writer.beginBatch();
      for (let i = 0; i < total; i++) {
        if (i % 2) repo.create(h.ws, numberOf(i), write(i));
        else writer.write(h.ws, { number: numberOf(i), name: write(i).name }, [], []);
        if (i % 5 === 0) repo.create(other, numberOf(i), write(i));
      }
      writer.endBatch();
    })();
    const plain = h.db.prepare<[string, number, number], ContactRow>(
      'SELECT * FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT ? OFFSET ?',
    );
    const compare = (perPage: number) => {
      const count = (h.db.prepare('SELECT count(*) AS n FROM contacts WHERE workspace_id = ?').get(h.ws) as { n: number }).n;
      const seen: number[] = [];
      for (let offset = 0; offset < count + perPage; offset += perPage) {
        const { ids, total: reported } = repo.page(h.ws, offset, perPage);
        expect(reported).toBe(count);
        expect(ids).toEqual(plain.all(h.ws, perPage, offset).map((r) => r.id));
        seen.push(...ids);
      }
      expect(new Set(seen).size).toBe(count);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    };
    compare(100);
    compare(37);
    // Deletes (through the repository and behind its back) and inserts after the checkpoints exist.
    const ids = plain.all(h.ws, 1_000_000, 0).map((r) => r.id);
    for (const id of ids.filter((_, index) => index % 97 === 3)) repo.delete(h.ws, id);
    h.db.prepare('DELETE FROM contacts WHERE workspace_id = ? AND id IN (?, ?, ?)').run(h.ws, ids[5], ids[2000], ids[3000]);
    compare(100);
    for (let i = total; i < total + 1500; i++) repo.create(h.ws, numberOf(i), write(i));
    compare(100);
    // The largest id deleted and its id reused by the next insert.
    const last = plain.all(h.ws, 1_000_000, 0).at(-1)!.id;
    repo.delete(h.ws, last);
    repo.create(h.ws, numberOf(total + 5000), write(1));
    repo.delete(h.ws, ids[1]);
    compare(10);
    compare(100);
    integrityCheck();
  });

  it('deep pages over HTTP carry the same rows as page 1 onwards', async () => {
    const repo = createContactsRepository(h.db);
    // Past several checkpoints, with the last page cut short.
    const total = PAGE_STEP * 8 + 50;
    for (let i = 0; i < total; i++) repo.create(h.ws, numberOf(i), write(i));
    const lastPage = Math.ceil(total / 100);
    const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?page=${lastPage}&per_page=100` });
    const offset = (lastPage - 1) * 100;
    const expected = h.db
      .prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id LIMIT 100 OFFSET ?')
      .all(h.ws, offset) as Array<{ id: number }>;
    expect(expected).toHaveLength(total - offset);
    expect(res.json().data.map((c: { id: number }) => c.id)).toEqual(expected.map((r) => r.id));
    expect(res.json().meta).toMatchObject({ total, from: offset + 1, to: total });
  });
});

describe('scale: search equals a scan of the folded text', () => {
  const queries = [
    'ana',
    'Ana Silva 1',
    'SILVA',
    'josé',
    'JOSÉ',
    'José',
    'jose',
    'ALVAREZ',
    'álvarez',
    'élodie',
    'ÉLODIE',
    'elodie',
    'ïnes',
    'INES',
    'straße',
    'STRASSE',
    'zoë',
    'ZOË',
    'zoe',
    'ÑÚÑEZ',
    'nunez',
    'Zoë Ñúñez',
    'ΟΔΟΣ',
    'οδοσ',
    'e_H',
    '_',
    '%',
    '100%',
    '"q"',
    'Quote "Q',
    '@mail3',
    'mail',
    '.example',
    '351000',
    '79',
    '1234',
    'xyz',
    'user1',
    '9 ',
    ' 1',
    '(351) 000',
    '+351 0-1',
    '1.5',
    'nul\u0000byte',
    '\u0000',
    'ｚｏｅ',
    'e\u0301lodie',
  ];

  /** The same rule as the search, computed here from the raw text: the query's key inside a key of the contact. */
  function expectScanEquality(repo: ReturnType<typeof createContactsRepository>) {
    const rows = (
      h.db.prepare('SELECT id, name, number, email FROM contacts WHERE workspace_id = ? ORDER BY id').all(h.ws) as Array<{
        id: number;
        name: string;
        number: string;
        email: string | null;
      }>
    ).map((r) => ({ ...r, nameKey: searchKey(r.name), emailKey: r.email === null ? null : searchKey(r.email) }));
    for (const query of queries) {
      const key = searchKey(query);
      const digits = searchedNumber(query);
      const matches = rows
        .filter(
          (r) =>
            r.nameKey.includes(key) ||
            r.number.includes(key) ||
            r.emailKey?.includes(key) ||
            (digits !== undefined && r.number.includes(digits)),
        )
        .map((r) => r.id);
      for (const [offset, limit] of [
        [0, 10],
        [0, 100],
        [30, 10],
        [1000, 100],
      ]) {
        const got = repo.search(h.ws, query, offset, limit);
        expect({ query, offset, ids: got.ids, total: got.total }).toEqual({
          query,
          offset,
          ids: matches.slice(offset, offset + limit),
          total: matches.length,
        });
      }
    }
  }

  it('gives the ids and total of a scan, one workspace holding every contact (index-only path)', () => {
    const repo = createContactsRepository(h.db);
    for (let i = 0; i < 3000; i++) repo.create(h.ws, numberOf(i), write(i));
    expectScanEquality(repo);
  });

  it('gives the ids and total of a scan with several workspaces, after imports, updates and deletes', () => {
    const repo = createContactsRepository(h.db);
    const other = createWorkspacesRepository(h.db).create({ name: 'Other', createdBy: 1, permissions: [] }).id;
    const writer = createImportWriter(h.db);
    h.db.transaction(() => {
      writer.beginBatch();
      for (let i = 0; i < 2000; i++)
        writer.write(
          i % 4 ? h.ws : other,
          { number: numberOf(i), name: write(i).name, ...(write(i).email ? { email: write(i).email! } : {}) },
          [],
          [],
        );
      // The same numbers again in the same batch: updates of rows not yet indexed.
      for (let i = 0; i < 50; i++) writer.write(h.ws, { number: numberOf(i * 4 + 1), name: `Renamed Zoë ${i}` }, [], []);
      writer.endBatch();
    })();
    for (let i = 2000; i < 2600; i++) repo.create(h.ws, numberOf(i), write(i));
    const some = repo.search(h.ws, 'ana', 0, 100).ids;
    for (const id of some.slice(0, 20)) repo.delete(h.ws, id);
    const renamed = repo.find(h.ws, repo.search(h.ws, 'bruno', 0, 1).ids[0])!;
    repo.update(renamed, { name: 'ΟΔΟΣ Ñúñez', email: 'ÉLODIE@example.com', gender: null, status: true });
    integrityCheck();
    expectScanEquality(repo);
  });

  it('stays exact while the index lags behind an import: pages across its line, updates and deletes on both sides, then caught up', () => {
    const repo = createContactsRepository(h.db);
    const index = createSearchIndex(h.db);
    for (let i = 0; i < 700; i++) repo.create(h.ws, numberOf(i), write(i));
    const indexedBefore = index.line();
    const writer = createImportWriter(h.db);
    h.db.transaction(() => {
      writer.beginBatch();
      for (let i = 700; i < 2200; i++)
        writer.write(h.ws, { number: numberOf(i), name: write(i).name, ...(write(i).email ? { email: write(i).email! } : {}) }, [], []);
      writer.endBatch();
    })();
    // The import's rows wait above the line; a create behind them waits too.
    expect(index.line()).toBe(indexedBefore);
    const late = repo.create(h.ws, numberOf(5000), write(5000));
    expect(index.line()).toBe(indexedBefore);
    integrityCheck();
    expectScanEquality(repo);
    // Part of the way: the line falls in the middle of the matches of most queries.
    index.indexSlice(600);
    expect(index.line()).toBeGreaterThan(indexedBefore);
    for (const id of repo.search(h.ws, 'ana', 0, 100_000).ids.filter((_, n) => n % 5 === 0)) repo.delete(h.ws, id);
    for (const id of repo.search(h.ws, 'bruno', 0, 100_000).ids.filter((_, n) => n % 3 === 0)) {
      repo.update(repo.find(h.ws, id)!, { name: 'ΟΔΟΣ Ñúñez', email: 'ÉLODIE@example.com', gender: null, status: true });
    }
    integrityCheck();
    expectScanEquality(repo);
    index.catchUp();
    expect(index.line()).toBe(late.id);
    integrityCheck();
    expectScanEquality(repo);
    // Nothing waits below a new contact: it is indexed at once.
    const next = repo.create(h.ws, numberOf(5001), write(5001));
    expect(index.line()).toBe(next.id);
    integrityCheck();
  });

  it('any text is found by any piece of it, in any case and with or without its accents', () => {
    const repo = createContactsRepository(h.db);
    const char = fc.constantFrom(
      'a',
      'Z',
      'ë',
      'Ë',
      'ñ',
      'Ñ',
      'ß',
      'ẞ',
      'ς',
      'Σ',
      'İ',
      'ı',
      'ﬁ',
      'Ａ',
      'e\u0301',
      '😀',
      'ש',
      '\u0000',
      ' ',
      '%',
      '_',
      '"',
      '1',
    );
    const text = fc.array(char, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
    let n = 0;
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.boolean(), (name, from, length, upper) => {
        const created = repo.create(h.ws, numberOf(90_000 + n++), { name, email: null, gender: null, status: true });
        const chars = [...name];
        const start = from % chars.length;
        const piece = chars.slice(start, start + 1 + (length % (chars.length - start))).join('');
        const query = upper ? piece.toUpperCase() : piece.normalize('NFD').replace(/\p{Mn}/gu, '');
        expect(repo.search(h.ws, query, 0, 100_000).ids).toContain(created.id);
      }),
      { numRuns: 300 },
    );
    expectScanEquality(repo);
  });
});

describe('scale: cheap import row count', () => {
  const cases: Record<string, string> = {
    lf: 'number,name\n1234567,A\n2345678,B\n',
    noFinalNewline: 'number,name\n1234567,A\n2345678,B',
    crlf: 'number,name\r\n1234567,A\r\n\r\n2345678,B\r\n',
    blanks: '\uFEFFnumber,name\n\n,,\n  , \n1234567,A\n\u00a0,\u3000\n,x\n\n',
    unicode: 'number,name\n1234567,Ïnes\n\u2003\nx,é\n',
    quotes: 'number,name\n1234567,"A\nB"\n"2345678",C\n',
    mixed: 'number,name\r\n1234567,A\n2345678,B\r\n',
    loneCr: 'number,name\r1234567,A\r2345678,B\r',
    headerOnly: 'number,name\n',
    empty: '',
  };
  it.each(Object.entries(cases))('%s: equals the rows the parser yields', async (name, text) => {
    const path = join(h.dir, `${name}.csv`);
    writeFileSync(path, text);
    let parsed = -1;
    for await (const _ of readCsvRows(path)) parsed += 1;
    expect(await countDataRows(path)).toBe(Math.max(0, parsed));
  });
});

describe('scale: start-up fast path', () => {
  it('bin/wsm.js --version prints the version commander prints', async () => {
    const { execFileSync } = await import('node:child_process');
    const { packageVersion } = await import('../../src/cli/version.js');
    const out = execFileSync(process.execPath, [new URL('../../bin/wsm.js', import.meta.url).pathname, '--version'], { encoding: 'utf8' });
    expect(out).toBe(`${packageVersion()}\n`);
  });
});
