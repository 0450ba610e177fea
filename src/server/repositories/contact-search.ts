/**
 * Search (decisions.md §3): substrings of name, number and email, case-insensitive for all of
 * Unicode and accent-insensitive. The query is folded by searchKey (search-key.ts) and compared
 * with the keys stored beside each contact (migration 009): a contact matches when the query's
 * key is a substring of its name key, its number or its e-mail key. The trigram index holds
 * exactly those keys, unfolded, so it gives the rows a plain scan of the keys gives.
 *
 * A query written as a phone number is (`+44 7700 900123`, `2024-01-02`) also finds the contacts
 * whose number holds its digits (searchedNumber; docs/decisions.md, "Search: text and a number's digits"): the
 * index is asked for either (`"key" OR number : "digits"`, one walk in rowid order), and a scan
 * compares both (HOLDS_QUERY).
 *
 * - The index may lag behind the table (migration 011): it holds the contacts up to its line,
 *   and the contacts above the line (an import's rows not yet indexed) are found by scanning
 *   their keys, as short keys are. Ids above the line come after every id in the index, so a
 *   page takes the index's matches first and the scanned ones after them.
 * - Pages walk the index in rowid (= id) order and stop after the page.
 * - The total is counted from the index alone (no row is read) when the workspace holds every
 *   contact, which is the common local case; otherwise each match is checked against the workspace.
 * - Keys under 3 characters (no trigram), and keys holding a NUL (which FTS5's query syntax
 *   cannot hold), are found by scanning the keys with instr(), which compares every character.
 * - The trigram tokenizer skips a NUL in the text, so the index also finds `ana` in `a<NUL>na`:
 *   the contacts whose keys hold a NUL (few, and found by an index of their own, migration 012)
 *   are checked against their keys, and those the index finds wrongly are left out of the page
 *   and the total.
 * - A total is kept per (workspace, query) until the database changes: walking every page of a
 *   search (`--all`) counted the whole match on each page, 50-70 ms a page at 100k matches. So is
 *   where each page ended (search-marks.ts): the next page starts there, not at the first match.
 * - Once the key copy is complete, its estimates choose the cheapest way to count a total: the
 *   index's phrase, the copy, or the index's two rarest trigrams with each candidate checked in
 *   the copy (search-sieve.ts).
 * - A whole number (7 digits or more, as a client finding a contact by its number sends) is
 *   answered from the contacts holding its rarest trigrams, each checked with HOLDS_QUERY
 *   (number-sieve.ts): its phrase holds the trigrams every number shares.
 * - The total of a query whose page shows its matches to be dense (at least one id in
 *   DENSE_IDS) is counted in a copy of the workspace's keys (key-scan.ts) when one is complete:
 *   the index checks every match position by position, which costs most where matches are
 *   most. A short key's total is counted there too (a scan of every row otherwise).
 */
import type { Db } from '../db.js';
import { NUL_KEYS } from '../migrations/012_nul_keys.js';
import { generationsOf } from './generations.js';
import { keyScan, MIN_ROWS } from './key-scan.js';
import { searchedNumber } from '../../api/schemas/contacts.js';
import { createNumberSieve, isWholeNumber } from './number-sieve.js';
import { searchKey } from './search-key.js';
import { createSearchMarks } from './search-marks.js';
import { createSearchSieve } from './search-sieve.js';

/** A page whose matches average at least one in this many ids is dense (measured at 1M: the index's count costs more than the copy's from about one in 30). */
const DENSE_IDS = 32;

/**
 * Which structure gave the total (for the Server-Timing header): the index, the key copy, the
 * index's rarest trigrams checked in the key copy (search-sieve.ts), a scan, or one kept.
 */
export type TotalSource = 'index' | 'keys' | 'sieve' | 'scan' | 'kept';

export interface SearchResult {
  ids: number[];
  total: number;
  /** Milliseconds spent on the page and on the total, and what counted it. */
  /**
   * `from`: `mark` when the page started where a page before it ended (search-marks.ts), `copy`
   * when it was read on from there in the key copy, else `start`.
   */
  timing: { pageMs: number; totalMs: number; source: TotalSource; from: 'start' | 'mark' | 'copy' };
}

export interface ContactSearchOptions {
  /** Workspaces with fewer contacts are not copied (key-scan.ts); tests lower it. */
  keyScanMinRows?: number;
}

/** The trigram index needs at least 3 characters; shorter keys are scanned. */
const FTS_MIN_CHARS = 3;

/** What a search compares: its key (the folded text) with every key, and a number's digits with the number. */
export interface SearchTerms {
  key: string;
  /** The digits of a query written as a phone number is, when they differ from the key. */
  digits?: string;
}

export function searchTerms(query: string): SearchTerms {
  const key = searchKey(query);
  const digits = searchedNumber(query);
  // Digits equal to the key are found in the number by the key itself.
  return digits === undefined || digits === key ? { key } : { key, digits };
}

/** The parameters HOLDS_QUERY reads: with no digits, @digits is the key, which the number is already compared with. */
export const queryParams = ({ key, digits }: SearchTerms) => ({ key, digits: digits ?? key });

/** An FTS5 string: the key as one phrase, so no character of it is FTS syntax. */
const ftsPhrase = (key: string) => `"${key.replaceAll('"', '""')}"`;
/** The index's expression for the terms (both phrases of at least FTS_MIN_CHARS, without NUL). */
const ftsMatch = ({ key, digits }: SearchTerms) =>
  digits === undefined ? ftsPhrase(key) : `${ftsPhrase(key)} OR number : ${ftsPhrase(digits)}`;

/**
 * A contact whose keys hold @key or whose number holds @digits (instr compares every character);
 * true or false, never null, so that NOT inverts it.
 */
export const HOLDS_QUERY =
  "(instr(c.name_key, @key) > 0 OR instr(c.number, @key) > 0 OR instr(coalesce(c.email_key, ''), @key) > 0 OR instr(c.number, @digits) > 0)";

/** Totals kept at most: a walk needs one; this bounds memory against many distinct queries. */
const KEPT_TOTALS = 256;

/** Matches in the index and above its line (only the scan of short keys counts everything as `index`). */
interface Counts {
  index: number;
  tail: number;
}

export function createContactSearch(db: Db, { keyScanMinRows = MIN_ROWS }: ContactSearchOptions = {}) {
  // Kept while the database is unchanged (generations.ts), looked at inside the search's own
  // transaction: a kept total belongs to the state its page is read from.
  const generations = generationsOf(db);
  const totals = generations.cache<Counts>(KEPT_TOTALS);
  type Counted = Counts & { source: TotalSource };
  const keptCounts = (workspaceId: string, terms: SearchTerms, count: () => Counted): Counted => {
    let counted: Counted | undefined;
    const counts = totals.through(generations.look(), JSON.stringify([workspaceId, terms.key, terms.digits]), () => {
      counted = count();
      return { index: counted.index, tail: counted.tail };
    })!;
    return counted ?? { ...counts, source: 'kept' };
  };
  const keys = keyScan(db);
  const keysCount = (workspaceId: string, terms: SearchTerms) => keys.count(workspaceId, terms, keyScanMinRows);
  const sieve = createSearchSieve(db, keys, keyScanMinRows);
  const searchMarks = createSearchMarks(generations);
  const numbers = createNumberSieve(db, HOLDS_QUERY);

  // The keys scanned: every contact's for a short key (line 0), the contacts above the index's
  // line otherwise (an import's rows it does not hold yet).
  type Scanned = { ws: string; key: string; digits: string; line: number };
  const scanWhere = `c.id > @line AND c.workspace_id = @ws AND ${HOLDS_QUERY}`;
  const scanPage = db
    .prepare<[Scanned & { limit: number; offset: number }], number>(
      `SELECT c.id FROM contacts c WHERE ${scanWhere} ORDER BY c.id LIMIT @limit OFFSET @offset`,
    )
    .pluck();
  const scanCount = db.prepare<[Scanned], number>(`SELECT count(*) FROM contacts c WHERE ${scanWhere}`).pluck();
  const line = db.prepare<[], number>('SELECT indexed_upto FROM search_index_state').pluck();
  const firstId = db.prepare<[string], number | null>('SELECT min(id) FROM contacts WHERE workspace_id = ?').pluck();
  const anyAbove = db.prepare<[string, number], number>('SELECT EXISTS (SELECT 1 FROM contacts WHERE workspace_id = ? AND id > ?)').pluck();
  /** A full page whose last id lies within DENSE_IDS ids a match of the workspace's first. */
  const dense = (workspaceId: string, ids: number[], offset: number, limit: number) =>
    limit > 0 && ids.length === limit && ids.at(-1)! - (firstId.get(workspaceId) ?? 0) < (offset + limit) * DENSE_IDS;

  // Whole table == this workspace: the index alone answers.
  const workspaceCount = db
    .prepare<[string], number>("SELECT count FROM counters WHERE workspace_id = ? AND resource = 'contacts'")
    .pluck();
  const allCount = db.prepare<[], number | null>("SELECT sum(count) FROM counters WHERE resource = 'contacts'").pluck();
  // A page's statements start after the id @after (search-marks.ts): FTS5 seeks to it.
  type Paged = { match: string; after: number; limit: number; offset: number };
  const indexIds = db
    .prepare<[Paged], number>(
      'SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match AND rowid > @after ORDER BY rowid LIMIT @limit OFFSET @offset',
    )
    .pluck();
  const indexCount = db.prepare<[{ match: string }], number>('SELECT count(*) FROM contacts_fts WHERE contacts_fts MATCH @match').pluck();

  // Any workspace mix: each match checked against the workspace.
  const joined = 'contacts_fts f JOIN contacts c ON c.id = f.rowid WHERE contacts_fts MATCH @match AND c.workspace_id = @ws';
  const joinedPage = db
    .prepare<[Paged & { ws: string }], number>(
      `SELECT c.id FROM ${joined} AND f.rowid > @after ORDER BY f.rowid LIMIT @limit OFFSET @offset`,
    )
    .pluck();
  const joinedCount = db.prepare<[{ ws: string; match: string }], number>(`SELECT count(*) FROM ${joined}`).pluck();

  // The indexed contacts the index finds for the query although their keys do not hold it.
  const wronglyFound = db
    .prepare<[{ ws: string; match: string; key: string; digits: string; line: number }], number>(
      `SELECT c.id FROM contacts c WHERE (${NUL_KEYS}) AND c.workspace_id = @ws AND c.id <= @line
         AND NOT ${HOLDS_QUERY}
         AND EXISTS (SELECT 1 FROM contacts_fts WHERE contacts_fts MATCH @match AND rowid = c.id)`,
    )
    .pluck();
  const without = 'NOT IN (SELECT value FROM json_each(@wrong))';
  const indexIdsWithout = db
    .prepare<[Paged & { wrong: string }], number>(
      `SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match AND rowid > @after AND rowid ${without} ORDER BY rowid LIMIT @limit OFFSET @offset`,
    )
    .pluck();
  const joinedPageWithout = db
    .prepare<[Paged & { ws: string; wrong: string }], number>(
      `SELECT c.id FROM ${joined} AND f.rowid > @after AND c.id ${without} ORDER BY f.rowid LIMIT @limit OFFSET @offset`,
    )
    .pluck();

  const search = db.transaction((workspaceId: string, query: string, offset: number, limit: number): SearchResult => {
    const started = performance.now();
    const terms = searchTerms(query);
    const { key, digits } = terms;
    const marks = searchMarks.of(generations.look(), JSON.stringify([workspaceId, key, digits]));
    const short = (text: string | undefined) => text !== undefined && [...text].length < FTS_MIN_CHARS;
    if (short(key) || short(digits) || key.includes('\0')) {
      const all = { ws: workspaceId, ...queryParams(terms), line: 0 };
      const { after, skip } = marks.start(offset);
      const from = skip < offset ? 'mark' : 'start';
      const ids = scanPage.all({ ...all, line: Math.max(0, after), limit, offset: skip });
      marks.ended(offset, ids);
      const paged = performance.now();
      const { index: total, source } = keptCounts(workspaceId, terms, () => {
        const copied = key.includes('\0') ? undefined : keysCount(workspaceId, terms);
        return copied === undefined ? { index: scanCount.get(all)!, tail: 0, source: 'scan' } : { index: copied, tail: 0, source: 'keys' };
      });
      return { ids, total, timing: { pageMs: paged - started, totalMs: performance.now() - paged, source, from } };
    }
    const match = ftsMatch(terms);
    const mine = workspaceCount.get(workspaceId) ?? 0;
    if (mine === 0)
      return { ids: [], total: 0, timing: { pageMs: performance.now() - started, totalMs: 0, source: 'index', from: 'start' } };
    const whole = mine === (allCount.get() ?? 0);
    const params = { ws: workspaceId, match };
    const tail = { ws: workspaceId, ...queryParams(terms), line: line.get()! };
    // A whole number: its page and exact total from the few contacts holding its rarest trigrams.
    const numbered = isWholeNumber(terms) ? numbers.matches(workspaceId, terms) : undefined;
    if (numbered !== undefined) {
      const above = scanCount.get(tail)!;
      const ids = numbered.slice(offset, offset + limit);
      if (ids.length < limit && above > 0)
        ids.push(...scanPage.all({ ...tail, limit: limit - ids.length, offset: Math.max(0, offset - numbered.length) }));
      const timing = { pageMs: performance.now() - started, totalMs: 0, source: 'sieve' as const, from: 'start' as const };
      return { ids, total: numbered.length + above, timing };
    }
    const wrong = wronglyFound.all({ ...params, ...queryParams(terms), line: tail.line });
    const paging = { match, ...marks.start(offset), limit };
    const at = { ...paging, offset: paging.skip };
    let from: 'start' | 'mark' | 'copy' = paging.skip < offset ? 'mark' : 'start';
    const countOf = (ids: number[]) => (): Counted => {
      // The copy counts every contact of the workspace: only when none waits above the index's line.
      const copyAllowed = anyAbove.get(workspaceId, tail.line) === 0;
      // The cheapest way by the copy's estimates; without them, the page's density decides.
      const way = digits === undefined ? sieve.plan(workspaceId, key, copyAllowed) : undefined;
      const byCopy = way === undefined ? copyAllowed && dense(workspaceId, ids, offset, limit) : way.by === 'keys';
      const copied = byCopy ? keysCount(workspaceId, terms) : undefined;
      if (copied !== undefined) return { index: copied, tail: 0, source: 'keys' };
      // The sieve checks the contacts' keys themselves: the wrongly found are never counted.
      const sieved = way?.by === 'sieve' ? sieve.count(workspaceId, key, way.rarest) : undefined;
      if (sieved !== undefined) return { index: sieved, tail: scanCount.get(tail)!, source: 'sieve' };
      const indexed = (whole ? indexCount.get({ match })! : joinedCount.get(params)!) - wrong.length;
      return { index: indexed, tail: scanCount.get(tail)!, source: 'index' };
    };
    // A later page of a walk: read on from the mark in the key copy, which holds every contact of
    // the workspace in id order (the index reads its lists from the first match whatever the mark).
    const fromCopy = from === 'mark' && digits === undefined ? keys.page(workspaceId, key, paging, keyScanMinRows) : undefined;
    if (fromCopy !== undefined) {
      marks.ended(offset, fromCopy);
      const paged = performance.now();
      const { index, tail: above, source } = keptCounts(workspaceId, terms, countOf(fromCopy));
      const timing = { pageMs: paged - started, totalMs: performance.now() - paged, source, from: 'copy' as const };
      return { ids: fromCopy, total: index + above, timing };
    }
    const ids =
      wrong.length === 0
        ? whole
          ? indexIds.all(at)
          : joinedPage.all({ ...params, ...at })
        : whole
          ? indexIdsWithout.all({ ...at, wrong: JSON.stringify(wrong) })
          : joinedPageWithout.all({ ...params, ...at, wrong: JSON.stringify(wrong) });
    marks.ended(offset, ids);
    const paged = performance.now();
    const { index, tail: above, source } = keptCounts(workspaceId, terms, countOf(ids));
    const counted = performance.now();
    if (ids.length < limit && above > 0) {
      // The contacts above the index's line come after its matches: their pages are marked apart.
      const aboveMarks = searchMarks.of(generations.look(), JSON.stringify([workspaceId, key, digits, 'above']));
      const { after, skip } = aboveMarks.start(Math.max(0, offset - index));
      if (skip < offset - index) from = 'mark';
      const scanned = scanPage.all({ ...tail, line: Math.max(tail.line, after), limit: limit - ids.length, offset: skip });
      aboveMarks.ended(Math.max(0, offset - index), scanned);
      ids.push(...scanned);
    }
    const done = performance.now();
    return { ids, total: index + above, timing: { pageMs: paged - started + (done - counted), totalMs: counted - paged, source, from } };
  });

  return { search };
}
