/**
 * Exact totals of common substrings: a copy in memory of a large workspace's search keys (the
 * folded name, the number, the folded e-mail of each contact, migration 009), counted with the
 * string search built into the engine. The trigram index checks a phrase position by position for
 * each matching row, so a substring in most rows (`examp` in every e-mail) costs 60-100 ms of CPU
 * at a million contacts; here about 2 ms (each e-mail domain held once, chunks whose trigrams
 * lack the needle's skipped: key-chunks.ts, key-domains.ts), a count reading every key about 25 ms.
 * contact-search.ts and search-sieve.ts choose when to count here. The copy also checks the
 * index's candidates for a query few contacts match (`countAmong`), and tells how common a
 * trigram is (`estimate`).
 *
 * - Queries holding a NUL never come here (contact-search.ts scans those).
 * - Contacts in id order, in chunks of consecutive ids; each chunk knows where each contact ends
 *   and its id.
 * - Exact at every moment, or no answer: the copy holds every contact of the workspace up to its
 *   line. Rows above the line are read in during the search (a few) or behind it (many). This
 *   connection's updates and deletes (and an insert below the line, which ids that only grow
 *   never make) mark their chunk through temporary triggers, and a marked chunk is read again
 *   before it is counted; another connection's commit (`data_version`) drops the copy. While a
 *   copy is incomplete, `count` answers undefined and the index counts.
 * - Built only for workspaces of MIN_ROWS contacts or more (the index is fast enough below), a
 *   slice at a time behind the requests, within MAX_BYTES in all: about 50 MB at a million.
 */
import { isBusyError, isFullError, type Db } from '../db.js';
import { createCounters } from './counters.js';
import { chunkOf, countAmong, countEitherIn, countIn, estimateIn, pageIn, sizeOf, textRowsOf, type Chunk, type Row } from './key-chunks.js';
import { createDomains, domainBytes, needleOf, type Domains } from './key-domains.js';

/** Below this many contacts the index counts fast enough; no copy is made. */
export const MIN_ROWS = 100_000;
/** The memory all copies may take (text plus row ends). */
const MAX_BYTES = 160 * 2 ** 20;
const CHUNK_ROWS = 1024;
/** Rows read per turn behind the requests: about 20 ms. */
const SLICE_ROWS = 8192;
/** Rows above the line, or marked chunks, a search brings in itself before it gives up and lets the index count. */
const SYNC_ROWS = 2000;
const SYNC_CHUNKS = 4;

interface Copy {
  chunks: Chunk[];
  /** Every contact of the workspace with an id up to here is in `chunks`. */
  line: number;
  /** The copy is complete up to its line (built through every slice). */
  ready: boolean;
  /** Indexes of chunks changed since they were read. */
  dirty: Set<number>;
  bytes: number;
  /** Estimates of how many contacts hold a piece of text (estimateIn), made once per copy. */
  estimates: Map<string, number>;
  /** The e-mail domains the chunks name (key-domains.ts). */
  domains: Domains;
}
type Estimates = { rows: number; holding: number[]; reading: number[] };
/** Contacts a page read from the copy may pass over: beyond, the index gives the page. */
const PAGE_ROWS = 20_000;
/** Estimates kept per copy: the trigrams of recent searches. */
const MAX_ESTIMATES = 4096;

const perConnection = new WeakMap<Db, ReturnType<typeof create>>();

/** The key copies of one connection (one per database connection: its triggers call back into it). */
export function keyScan(db: Db): ReturnType<typeof create> {
  let scan = perConnection.get(db);
  if (!scan) perConnection.set(db, (scan = create(db)));
  return scan;
}

function create(db: Db) {
  const copies = new Map<string, Copy>();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  // `+?` and `?+0`: one plan for every call (db.ts, "Re-planned statements"): 8 -> 3 µs a call.
  const rowsAbove = db
    .prepare<[string, number, number], Row>(
      'SELECT id, name_key, number, email_key FROM contacts WHERE workspace_id = +? AND id > ? ORDER BY id LIMIT ?+0',
    )
    .raw();
  const rowsBetween = db
    .prepare<[string, number, number], Row>(
      'SELECT id, name_key, number, email_key FROM contacts WHERE workspace_id = +? AND id >= ? AND id <= ? ORDER BY id',
    )
    .raw();
  const counters = createCounters(db);
  /** Workspaces whose copy went beyond MAX_BYTES: the index counts for them. */
  const tooLarge = new Set<string>();
  let version: number | undefined;
  let triggers = false;
  let scheduled = false;
  let disabled = false;
  const usedBytes = () => [...copies.values()].reduce((sum, copy) => sum + copy.bytes + domainBytes(copy.domains), 0);

  /** Marks the chunk holding contact `id` of `workspaceId` as changed (called by the triggers). */
  function changed(workspaceId: string, id: number): null {
    const copy = copies.get(String(workspaceId));
    if (!copy || id > copy.line || copy.chunks.length === 0) return null;
    let low = 0;
    let high = copy.chunks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (copy.chunks[mid].first <= id) low = mid;
      else high = mid - 1;
    }
    copy.dirty.add(low);
    return null;
  }

  function installTriggers(): void {
    if (triggers) return;
    db.function('wsm_key_scan_changed', { deterministic: false }, (ws: unknown, id: unknown) => changed(String(ws), Number(id)));
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS wsm_key_scan_au AFTER UPDATE OF workspace_id, name_key, number, email_key ON main.contacts BEGIN
        SELECT wsm_key_scan_changed(old.workspace_id, old.id), wsm_key_scan_changed(new.workspace_id, new.id);
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS wsm_key_scan_ai AFTER INSERT ON main.contacts BEGIN
        SELECT wsm_key_scan_changed(new.workspace_id, new.id);
      END;
      CREATE TEMP TRIGGER IF NOT EXISTS wsm_key_scan_ad AFTER DELETE ON main.contacts BEGIN
        SELECT wsm_key_scan_changed(old.workspace_id, old.id);
      END;
    `);
    triggers = true;
  }

  /** Another connection committed: what it changed is unknown, so every copy goes. */
  function checkVersion(): void {
    const now = dataVersion.get()!;
    if (version !== undefined && now !== version) copies.clear();
    version = now;
  }

  function replace(copy: Copy, index: number, chunk: Chunk): void {
    copy.bytes += sizeOf(chunk) - (index < copy.chunks.length ? sizeOf(copy.chunks[index]) : 0);
    copy.chunks[index] = chunk;
    copy.dirty.delete(index);
  }

  /** Reads the contacts of chunk `index` again, from its first id up to the next chunk's (or the line). */
  function reread(workspaceId: string, copy: Copy, index: number): void {
    const first = copy.chunks[index].first;
    const last = index + 1 < copy.chunks.length ? copy.chunks[index + 1].first - 1 : copy.line;
    replace(copy, index, chunkOf(first, rowsBetween.all(workspaceId, first, last), copy.domains));
  }

  /** Appends up to `limit` contacts above the line; false when more wait. */
  function append(workspaceId: string, copy: Copy, limit: number): boolean {
    const rows = rowsAbove.all(workspaceId, copy.line, limit + 1);
    const taken = rows.slice(0, limit);
    if (taken.length === 0) return true;
    let at = 0;
    const last = copy.chunks.at(-1);
    if (last && last.ends.length < CHUNK_ROWS) {
      // The last chunk grows up to CHUNK_ROWS contacts: read again up to its new end.
      at = Math.min(taken.length, CHUNK_ROWS - last.ends.length);
      replace(copy, copy.chunks.length - 1, chunkOf(last.first, rowsBetween.all(workspaceId, last.first, taken[at - 1][0]), copy.domains));
    }
    for (; at < taken.length; at += CHUNK_ROWS) {
      const rowsOfChunk = taken.slice(at, at + CHUNK_ROWS);
      // The first chunk starts below every id: an id given below every other still falls in a chunk.
      const first = copy.chunks.length === 0 ? Number.MIN_SAFE_INTEGER : rowsOfChunk[0][0];
      replace(copy, copy.chunks.length, chunkOf(first, rowsOfChunk, copy.domains));
    }
    copy.line = taken.at(-1)![0];
    return rows.length <= limit;
  }

  /** One slice of work behind the requests, in its own read transaction; true when more waits. */
  const slice = db.transaction((): boolean => {
    checkVersion();
    for (const [workspaceId, copy] of copies) {
      if (copy.dirty.size > 0) {
        for (const index of [...copy.dirty].slice(0, SLICE_ROWS / CHUNK_ROWS)) reread(workspaceId, copy, index);
        return true;
      }
      if (!copy.ready) {
        copy.ready = append(workspaceId, copy, SLICE_ROWS);
        if (usedBytes() > MAX_BYTES) {
          copies.delete(workspaceId);
          tooLarge.add(workspaceId);
        }
        return true;
      }
    }
    return false;
  });

  function schedule(): undefined {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!db.open) return copies.clear();
      let more = false;
      try {
        more = slice();
      } catch (error) {
        // Busy or full: the copies are dropped (they may be incomplete) and made again on demand.
        // Anything else is a fault here: the index counts from now on, and the fault is said.
        copies.clear();
        if (!isBusyError(error) && !isFullError(error)) {
          disabled = true;
          process.emitWarning(`search key copy disabled: ${String(error)}`);
        }
      }
      if (more) schedule();
    }).unref();
  }

  /**
   * Inside the search's read transaction: the workspace's copy, complete and up to date, or
   * undefined (one is started when `start` and the workspace is large enough).
   */
  function current(workspaceId: string, minRows: number, start: boolean): Copy | undefined {
    if (disabled) return undefined;
    checkVersion();
    let copy = copies.get(workspaceId);
    if (!copy) {
      if (!start || counters.count(workspaceId, 'contacts') < minRows || tooLarge.has(workspaceId) || usedBytes() > MAX_BYTES)
        return undefined;
      installTriggers();
      const [estimates, domains] = [new Map<string, number>(), createDomains()];
      copies.set(
        workspaceId,
        (copy = { chunks: [], line: Number.MIN_SAFE_INTEGER, ready: false, dirty: new Set(), bytes: 0, estimates, domains }),
      );
      return schedule();
    }
    if (!copy.ready || copy.dirty.size > SYNC_CHUNKS) return schedule();
    if (!append(workspaceId, copy, SYNC_ROWS)) {
      copy.ready = false;
      return schedule();
    }
    for (const index of [...copy.dirty]) reread(workspaceId, copy, index);
    return copy;
  }

  return {
    /**
     * Inside the search's read transaction: how many contacts of the workspace hold `key` (no
     * NUL) in one of their keys or `digits` in their number, or undefined when no complete copy
     * exists yet (one is started).
     */
    count(workspaceId: string, { key, digits }: { key: string; digits?: string }, minRows = MIN_ROWS): number | undefined {
      const copy = current(workspaceId, minRows, true);
      if (copy === undefined) return undefined;
      if (key === '') return copy.chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0);
      const needle = needleOf(copy.domains, key);
      let total = 0;
      for (const chunk of copy.chunks) total += digits === undefined ? countIn(chunk, needle) : countEitherIn(chunk, needle, digits);
      return total;
    },

    /**
     * Inside the search's read transaction: a page of the workspace's contacts holding `key` (no
     * NUL) after the id `after` and `skip` matches (search-marks.ts), or undefined without a
     * complete copy or when the matches are too sparse for it (none is started).
     */
    page(workspaceId: string, key: string, at: { after: number; skip: number; limit: number }, minRows = MIN_ROWS): number[] | undefined {
      const copy = current(workspaceId, minRows, false);
      return copy === undefined ? undefined : pageIn(copy.chunks, needleOf(copy.domains, key), at.after, at.skip, at.limit, PAGE_ROWS);
    },

    /**
     * Inside the search's read transaction: how many of `ids` (ascending) are contacts of the
     * workspace holding `key` (no NUL) in one of their keys, or undefined without a complete copy
     * (none is started: a dense search starts it).
     */
    countAmong(workspaceId: string, key: string, ids: number[], minRows = MIN_ROWS): number | undefined {
      const copy = current(workspaceId, minRows, false);
      return copy === undefined ? undefined : countAmong(copy.chunks, needleOf(copy.domains, key), ids);
    },

    /**
     * About how many contacts of the workspace hold every text of each of `sets` (from a sample of
     * the copy), how many contacts' text a count of each set's first text reads (textRowsOf), and
     * how many the copy holds; undefined without a complete copy (none is started).
     */
    estimate(workspaceId: string, sets: string[][], minRows = MIN_ROWS): Estimates | undefined {
      const copy = current(workspaceId, minRows, false);
      if (copy === undefined) return undefined;
      const holding = sets.map((texts) => {
        const key = texts.join('\0');
        let estimate = copy.estimates.get(key);
        if (estimate === undefined) {
          if (copy.estimates.size >= MAX_ESTIMATES) copy.estimates.clear();
          const needles = texts.map((text) => needleOf(copy.domains, text));
          copy.estimates.set(key, (estimate = estimateIn(copy.chunks, needles)));
        }
        return estimate;
      });
      const reading = sets.map(([text]) => textRowsOf(copy.chunks, needleOf(copy.domains, text)));
      return { rows: copy.chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0), holding, reading };
    },

    /** Builds every started copy now (tests and benchmarks: no waiting for the slices). */
    catchUp(): void {
      while (slice());
    },
  };
}
