/**
 * Answers kept while the database stays as it was (at a million contacts, a list request
 * spent most of its time reading who the caller is and rendering a page, both unchanged since the
 * request before).
 *
 * A generation is a number that moves on whenever the database may have changed: a commit by another
 * connection (another process; `PRAGMA data_version` moves) or any row written on this one
 * (`total_changes()` moves, whatever the table, trigger writes and rolled back writes included).
 * Every write counts, so no cached answer depends on a narrower rule of what changes what being
 * kept in step with the schema: revoking a token, deactivating a member, changing a role or a
 * contact all start a new generation, and nothing cached before it is answered after it.
 *
 * A request looks once, when it arrives (http/auth.ts), and its answer may come from anything kept
 * in that generation: a state the database was in while the request was in flight. A write
 * finished before a request was sent is always seen by it: the request looks after the write.
 */
import type { Db } from '../db.js';

interface GenerationCache<V> {
  /**
   * The answer for `key` kept in `generation`, or `make()`'s, kept for the requests of that
   * generation when it is still the newest. An older request's answer is made and not kept.
   * `undefined` is never kept (a refusal is read again).
   */
  through(generation: number, key: string, make: () => V | undefined): V | undefined;
}

export interface Generations {
  /** The generation now: one read of the database's version (a read transaction of its own, about 7 µs). */
  look(): number;
  /**
   * A cache of at most `max` answers (the oldest go first), emptied when a newer generation is
   * seen; an answer `keepIf` refuses (a large one) is made every time instead.
   */
  cache<V>(max: number, keepIf?: (value: V) => boolean): GenerationCache<V>;
}

const ofDb = new WeakMap<Db, Generations>();

/** The generations of one connection: one per database handle, shared by whatever keeps answers on it. */
export function generationsOf(db: Db): Generations {
  let generations = ofDb.get(db);
  if (!generations) ofDb.set(db, (generations = createGenerations(db)));
  return generations;
}

function createGenerations(db: Db): Generations {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  // Reads no table, so it takes no lock: under a microsecond.
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  let version: number | undefined;
  let changes: number | undefined;
  let generation = 0;

  return {
    look() {
      const nowVersion = dataVersion.get()!;
      const nowChanges = totalChanges.get()!;
      if (nowVersion !== version || nowChanges !== changes) {
        version = nowVersion;
        changes = nowChanges;
        generation++;
      }
      return generation;
    },
    cache<V>(max: number, keepIf: (value: V) => boolean = () => true): GenerationCache<V> {
      let kept = 0;
      const entries = new Map<string, V>();
      return {
        through(at, key, make) {
          if (at > kept) {
            entries.clear();
            kept = at;
          }
          const current = at === kept && at > 0;
          const hit = current ? entries.get(key) : undefined;
          if (hit !== undefined) return hit;
          const made = make();
          if (current && made !== undefined && keepIf(made)) {
            if (entries.size >= max) entries.delete(entries.keys().next().value!);
            entries.set(key, made);
          }
          return made;
        },
      };
    },
  };
}
