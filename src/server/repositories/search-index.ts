/**
 * The search index and its line (migration 011): the index holds exactly the contacts whose id
 * is at or below `indexed_upto`. A single create indexes its contact at once when nothing waits
 * below it; an import leaves its rows above the line, and `catchUp` indexes them behind it, a
 * slice of ids per transaction. Search is exact on either side of the line (contact-search.ts).
 */
import type { Db } from '../db.js';

/** Contacts indexed per transaction: about 50-100 ms of work, so requests get in between slices. */
const INDEX_SLICE_ROWS = 2000;

export function createSearchIndex(db: Db) {
  const line = db.prepare<[], number>('SELECT indexed_upto FROM search_index_state').pluck();
  const setLine = db.prepare<[number]>('UPDATE search_index_state SET indexed_upto = ?');
  const waitingBelow = db.prepare<[number, number], number>('SELECT EXISTS (SELECT 1 FROM contacts WHERE id > ? AND id < ?)').pluck();
  const indexOne = db.prepare<[number]>(
    "INSERT INTO contacts_fts (rowid, name_key, number, email_key) SELECT id, name_key, number, coalesce(email_key, '') FROM contacts WHERE id = ?",
  );
  const sliceEnd = db
    .prepare<[number, number], number | null>('SELECT max(id) FROM (SELECT id FROM contacts WHERE id > ? ORDER BY id LIMIT ?)')
    .pluck();
  const indexRange = db.prepare<[number, number]>(
    "INSERT INTO contacts_fts (rowid, name_key, number, email_key) SELECT id, name_key, number, coalesce(email_key, '') FROM contacts WHERE id > ? AND id <= ?",
  );

  /** Indexes the next slice above the line and moves the line past it; false when nothing waits. */
  const indexSlice = db.transaction((rows: number): boolean => {
    const from = line.get()!;
    const to = sliceEnd.get(from, rows);
    if (to === null || to === undefined) return false;
    indexRange.run(from, to);
    setLine.run(to);
    return true;
  });

  return {
    /** The id at or below which every contact is in the index. */
    line: () => line.get()!,

    /** Inside the create's transaction: indexes the new contact at once unless unindexed contacts wait below it. */
    created(id: number): void {
      const current = line.get()!;
      if (current >= id || waitingBelow.get(current, id) === 1) return;
      indexOne.run(id);
      setLine.run(id);
    },

    /** One slice (its own transaction); true when it indexed something. */
    indexSlice: (rows = INDEX_SLICE_ROWS): boolean => indexSlice(rows),

    /** Everything above the line, in slices (tests, the benchmarks' datasets). */
    catchUp(rows = INDEX_SLICE_ROWS): void {
      while (indexSlice(rows));
    },
  };
}
export type SearchIndex = ReturnType<typeof createSearchIndex>;
