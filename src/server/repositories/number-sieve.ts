/**
 * A search for a whole number (`3510000123456`, `+351 000 123 456`: the shape a client finding a
 * contact by its number sends). Its phrase holds the trigrams every number of a country shares
 * (`351`, `510`, `000`), and the trigram index reads those lists whole, for the page and again for
 * the total: 44 + 30 ms at a million contacts, 3 + 2 ms at 100,000, for one contact found.
 * Here the index gives the contacts holding the query's two rarest trigrams (about 1 ms: rare
 * lists are short), and each of those candidates is checked against its keys with HOLDS_QUERY,
 * the rule a scan applies: the page and the exact total come from the same few rows.
 *
 * Rarity is estimated from a sample of the workspace's keys, taken again after a while; a stale
 * or unlucky estimate only costs time, never a match. When the rarest trigrams still name more
 * than CANDIDATES_MAX contacts (a number most contacts hold), `matches` gives no answer and the
 * caller searches as for any text.
 */
import type { Db } from '../db.js';
import type { SearchTerms } from './contact-search.js';
import { phrase, trigramsOf } from './search-sieve.js';

/** Digits a query's number needs to be searched here: a phone number's least (NUMBER_PATTERN). */
const WHOLE_DIGITS = /^\d{7,}$/;
/** Trigrams asked of the index together per term: a third reads another list and removes few. */
const RAREST = 2;
/** Candidates checked at most (about 1 µs each); past it the index's phrase counts. */
const CANDIDATES_MAX = 4000;
/** Contacts sampled for trigram counts, and how long a sample is used. */
const SAMPLE_ROWS = 1000;
const SAMPLE_MS = 60_000;
/** Workspaces whose samples are kept. */
const SAMPLES_KEPT = 16;

interface Sample {
  taken: number;
  holding: Map<string, number>;
}

/** The terms of a whole-number query, or undefined for any other query. */
export const isWholeNumber = ({ key, digits }: SearchTerms): boolean => WHOLE_DIGITS.test(digits ?? key);

export function createNumberSieve(db: Db, holdsQuery: string) {
  const idRange = db.prepare<[string], { low: number | null; high: number | null }>(
    'SELECT min(id) AS low, max(id) AS high FROM contacts WHERE workspace_id = ?',
  );
  const sampleRows = db
    .prepare<[string, string], string[]>(
      "SELECT name_key, number, coalesce(email_key, '') FROM contacts WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))",
    )
    .raw();
  const candidates = db
    .prepare<[{ match: string; most: number }], number>('SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match LIMIT @most')
    .pluck();
  const checked = db
    .prepare<[{ ids: string; ws: string; key: string; digits: string }], number>(
      `SELECT c.id FROM contacts c WHERE c.id IN (SELECT value FROM json_each(@ids)) AND c.workspace_id = @ws AND ${holdsQuery} ORDER BY c.id`,
    )
    .pluck();
  const samples = new Map<string, Sample>();

  /** How many of a sample of the workspace's contacts hold each trigram (contacts spread evenly over its ids). */
  function sampleOf(workspaceId: string): Sample {
    const kept = samples.get(workspaceId);
    if (kept !== undefined && performance.now() - kept.taken < SAMPLE_MS) return kept;
    const { low, high } = idRange.get(workspaceId) ?? { low: null, high: null };
    const ids = new Set<number>();
    if (low !== null && high !== null) for (let i = 0; i < SAMPLE_ROWS; i++) ids.add(low + Math.floor(((high - low) * i) / SAMPLE_ROWS));
    const holding = new Map<string, number>();
    for (const keys of sampleRows.all(workspaceId, JSON.stringify([...ids])))
      for (const gram of new Set(keys.flatMap(trigramsOf))) holding.set(gram, (holding.get(gram) ?? 0) + 1);
    if (samples.size >= SAMPLES_KEPT) samples.delete(samples.keys().next().value!);
    const sample = { taken: performance.now(), holding };
    samples.set(workspaceId, sample);
    return sample;
  }

  /** The index's expression for the contacts holding the rarest trigrams of `text`: a superset of those holding `text`. */
  function rarestOf(text: string, sample: Sample): string {
    // Ties go to the trigrams nearest the end: a number's last digits differ most.
    const grams = trigramsOf(text).reverse();
    const rarest = grams
      .map((gram, order) => ({ gram, order, holding: sample.holding.get(gram) ?? 0 }))
      .sort((a, b) => a.holding - b.holding || a.order - b.order)
      .slice(0, RAREST);
    return rarest.map(({ gram }) => phrase(gram)).join(' AND ');
  }

  return {
    /**
     * Inside the search's read transaction, for a whole-number query (isWholeNumber) of keys
     * without NUL: the ids of the workspace's indexed contacts it matches, in id order; undefined
     * when too many contacts hold its rarest trigrams.
     */
    matches(workspaceId: string, terms: SearchTerms): number[] | undefined {
      const sample = sampleOf(workspaceId);
      const { key, digits } = terms;
      const match = digits === undefined ? rarestOf(key, sample) : `(${rarestOf(key, sample)}) OR number : (${rarestOf(digits, sample)})`;
      const found = candidates.all({ match, most: CANDIDATES_MAX + 1 });
      if (found.length > CANDIDATES_MAX) return undefined;
      if (found.length === 0) return [];
      return checked.all({ ids: JSON.stringify(found), ws: workspaceId, key, digits: digits ?? key });
    },
  };
}
