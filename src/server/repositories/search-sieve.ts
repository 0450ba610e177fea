/**
 * The total of a query that few contacts match but whose phrase holds a trigram most contacts
 * hold (`@mail18.`: `@ma`, `mai` and `ail` are in every e-mail; `351667`: `351` in every number).
 * The trigram index checks such a phrase by reading the common trigrams' lists whole (20-60 ms at
 * a million contacts for 13,000 matches), although the uncommon trigrams alone name the few
 * contacts that can match. Here the index gives the contacts holding the uncommon trigrams
 * (`"l18" AND "18."`: about 1 ms), and the key copy (key-scan.ts) checks each of them against its
 * keys: exact, and a cost that follows those candidates.
 *
 * How common each trigram is comes from a sample of the copy; without a complete copy, or when
 * every trigram is common (the matches are dense: the copy counts them all) or none is (the
 * phrase is cheap), this gives no answer and the caller counts as before.
 */
import type { Db } from '../db.js';
import type { keyScan } from './key-scan.js';

/** A trigram in at least one contact in this many makes the phrase slow to check; one in fewer names candidates. */
const COMMON = 16;
/** The uncommon trigrams asked of the index together, rarest first: more cost more than they remove. */
const SIEVE_GRAMS = 3;

/** The distinct trigrams of a key, by character (as the trigram index cuts it). */
function trigramsOf(key: string): string[] {
  const chars = [...key];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams];
}

const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

export function createSearchSieve(db: Db, keys: ReturnType<typeof keyScan>, minRows: number) {
  const candidates = db.prepare<[{ match: string }], number>('SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match').pluck();

  return {
    /**
     * Inside the search's read transaction: how many indexed contacts of the workspace hold `key`
     * (no NUL, at least 4 characters), or undefined when the phrase is the cheaper way.
     */
    count(workspaceId: string, key: string): number | undefined {
      const grams = trigramsOf(key);
      if (grams.length < 2) return undefined;
      const estimate = keys.estimate(workspaceId, grams, minRows);
      if (estimate === undefined) return undefined;
      const { rows, holding } = estimate;
      const order = grams.map((gram, i) => ({ gram, holding: holding[i] })).sort((a, b) => a.holding - b.holding);
      // Every trigram uncommon: the phrase is cheap. The uncommon ones name the candidates together.
      const uncommon = order.filter((gram) => gram.holding * COMMON < rows).slice(0, SIEVE_GRAMS);
      if (uncommon.length === order.length || uncommon.length === 0) return undefined;
      const ids = candidates.all({ match: uncommon.map(({ gram }) => phrase(gram)).join(' AND ') });
      return keys.countAmong(workspaceId, key, ids, minRows);
    },
  };
}
