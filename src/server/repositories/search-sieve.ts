/**
 * The total of a query that few contacts match but whose phrase holds a trigram most contacts
 * hold (`@mail18.`: `@ma`, `mai` and `ail` are in every e-mail; `351667`: `351` in every number).
 * The trigram index checks such a phrase by reading the common trigrams' lists whole (20-60 ms at
 * a million contacts for 13,000 matches), although the rarest trigrams alone name the few
 * contacts that can match. Here the index gives the contacts holding the two rarest trigrams
 * (`"l18" AND "18."`: about 1 ms), and the key copy (key-scan.ts) checks each of them against its
 * keys: exact, and a cost that follows those candidates.
 *
 * How many contacts hold the key, each trigram, and the two rarest together is estimated from a
 * sample of the copy, and `plan` takes the cheapest of the phrase, the copy (key-scan.ts: every
 * key read) and the sieve. Without a complete copy it gives no answer and the caller decides as
 * before (by how dense the page's matches are).
 */
import type { Db } from '../db.js';
import type { keyScan } from './key-scan.js';

/** The rarest trigrams asked of the index together: a third costs more than it removes. */
const SIEVE_GRAMS = 2;

// What each way of counting costs, in nanoseconds of CPU, measured at a million contacts
// (docs/benchmarks.md, "Fast, round 3"): the phrase reads every trigram's list (about 8 ns an
// entry) and checks the positions of each contact holding them all (about 100 ns); the key copy
// reads the text of the chunks the needle's trigrams may be in (about 25 ns a contact: 25 ms at a
// million), each contact's domain (about 2 ns) and stops at each match (about 10 ns); the sieve
// reads the two rarest lists and fetches and checks each candidate (about 500 ns).
const ENTRY_NS = 8;
const PHRASE_MATCH_NS = 100;
const COPY_ROW_NS = 25;
const COPY_DOMAIN_NS = 2;
const COPY_MATCH_NS = 10;
const CANDIDATE_NS = 500;

/** The cheapest way to count a query's total, and the trigrams the sieve would ask for. */
export type CountWay = { by: 'index' | 'keys' } | { by: 'sieve'; rarest: string[] };

/** The distinct trigrams of a key, by character (as the trigram index cuts it). */
export function trigramsOf(key: string): string[] {
  const chars = [...key];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams];
}

/** An FTS5 phrase holding the text as it is (no character of it read as FTS syntax). */
export const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

export function createSearchSieve(db: Db, keys: ReturnType<typeof keyScan>, minRows: number) {
  const candidateIds = db.prepare<[{ match: string }], number>('SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match').pluck();

  return {
    /**
     * Inside the search's read transaction: the cheapest way to count `key` (no NUL, at least 3
     * characters), from estimates on the key copy; undefined without a complete copy. `copyAllowed`:
     * the copy may count (no contact waits above the index's line).
     */
    plan(workspaceId: string, key: string, copyAllowed: boolean): CountWay | undefined {
      const grams = trigramsOf(key);
      const each = keys.estimate(workspaceId, [[key], ...grams.map((gram) => [gram])], minRows);
      if (each === undefined) return undefined;
      const [matches, ...holding] = each.holding;
      const rarest = grams
        .map((gram, i) => ({ gram, holding: holding[i] }))
        .sort((a, b) => a.holding - b.holding)
        .slice(0, SIEVE_GRAMS);
      const costs: Array<[number, CountWay]> = [
        [holding.reduce((sum, n) => sum + n, 0) * ENTRY_NS + matches * PHRASE_MATCH_NS, { by: 'index' }],
      ];
      const copyCost = each.rows * COPY_DOMAIN_NS + each.reading[0] * COPY_ROW_NS + matches * COPY_MATCH_NS;
      if (copyAllowed) costs.push([copyCost, { by: 'keys' }]);
      if (rarest.length === SIEVE_GRAMS) {
        const together = rarest.map(({ gram }) => gram);
        const candidates = keys.estimate(workspaceId, [together], minRows)!.holding[0];
        const read = rarest.reduce((sum, gram) => sum + gram.holding, 0);
        costs.push([read * ENTRY_NS + candidates * CANDIDATE_NS, { by: 'sieve', rarest: together }]);
      }
      return costs.reduce((best, next) => (next[0] < best[0] ? next : best))[1];
    },

    /** Inside the search's read transaction: how many indexed contacts of the workspace hold `key`, their candidates being those holding `rarest`. */
    count(workspaceId: string, key: string, rarest: string[]): number | undefined {
      const ids = candidateIds.all({ match: rarest.map(phrase).join(' AND ') });
      return keys.countAmong(workspaceId, key, ids, minRows);
    },
  };
}
