/**
 * Where the pages of a search ended, kept while the database is unchanged (generations.ts): a
 * later page of the same search starts after the last id of the nearest page read before it,
 * instead of stepping over every match before it again. Walking a dense search page by page
 * (`contacts list --all --search`) read all the matches before each page: page 200 of 100 at
 * one match in seven stepped over 19,900 matches, each checked against the phrase.
 */
import type { Generations } from './generations.js';

/** Searches whose marks are kept at once. */
const KEPT_SEARCHES = 64;
/** Marks kept per search: a walk of more pages starts again from the nearest kept. */
const MARKS_PER_SEARCH = 4096;
/** Before every id. */
const FIRST = Number.MIN_SAFE_INTEGER;

export function createSearchMarks(generations: Generations) {
  const kept = generations.cache<Map<number, number>>(KEPT_SEARCHES);

  return {
    /** The marks of one search (its workspace and terms as `key`) in `generation`. */
    of(generation: number, key: string) {
      // position -> the id of the match just before it
      const marks = kept.through(generation, key, () => new Map<number, number>())!;
      return {
        /** Where the page at `offset` starts: after `after`, `skip` matches further. */
        start(offset: number): { after: number; skip: number } {
          let from = 0;
          let after = FIRST;
          for (const [position, id] of marks)
            if (position <= offset && position > from) {
              from = position;
              after = id;
            }
          return { after, skip: offset - from };
        },
        /** Notes the page at `offset` that ended with `ids`'s last. */
        ended(offset: number, ids: number[]): void {
          if (ids.length === 0) return;
          if (marks.size >= MARKS_PER_SEARCH) marks.clear();
          marks.set(offset + ids.length, ids.at(-1)!);
        },
      };
    },
  };
}
