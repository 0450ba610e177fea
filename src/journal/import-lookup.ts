// An import into a workspace too large to read whole: its before-images are the contacts the
// file's numbers name, each found by a search (number-lookup.ts), up to WSM_IMPORT_LOOKUP_LIMIT
// distinct numbers; the numbers found absent are the ones the import may create (what it makes of
// them is predicted from its rows, import-outcome.ts: nothing is looked up after it). Past the
// bound, or where the server's search cannot be trusted to find numbers, no before-image is taken
// and the change says why at the time.
import type { WsmClient } from '../api/client.js';
import type { Context } from '../cli/context.js';
import type { CheckOptions } from '../cli/csv-check.js';
import { countText } from '../cli/text.js';
import { liveContacts, type LiveContacts } from '../commands/contacts/plan.js';
import { cannotListContacts } from '../commands/contacts/plan-live.js';
import { concurrencyOf } from '../commands/shared/concurrency.js';
import { lookUpNumbers, searchFindsEndings, searchFindsNumbers } from './number-lookup.js';

/**
 * The before-images found by number, with the contacts holding an absent one with more leading
 * zeros: `absent`, the numbers no contact held (the import's creates, if any); `paddedUntold`, why
 * such contacts could not be searched for (the server's search does not match parts of numbers).
 */
export interface LookedUp {
  live: LiveContacts;
  absent: Set<string>;
  paddedUntold?: string;
}

/** Reads the file's rows (the upload's check) with these options: how its numbers are found when no plan read them. */
export type ReadRows = (options: CheckOptions) => Promise<unknown>;

/** The numbers the file's valid rows name, as the server stores them, up to `limit` distinct; undefined past it (read no further). */
async function numbersUpTo(read: ReadRows, limit: number): Promise<Set<string> | undefined> {
  const numbers = new Set<string>();
  const stop = new AbortController();
  try {
    await read({
      signal: stop.signal,
      onRow(row) {
        if (row.value === undefined) return;
        numbers.add(String(row.value.number));
        if (numbers.size > limit) stop.abort();
      },
    });
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  }
  return numbers.size > limit ? undefined : numbers;
}

/**
 * The contacts `numbers` names, found by search, with notes for what could not be found; a
 * string says why none were looked up. `numbers`: the file's, or a function reading them.
 */
export async function beforeByNumber(
  ctx: Context,
  client: WsmClient,
  numbers: Iterable<string> | ReadRows,
  limit: number,
  note: (sentence: string) => void,
): Promise<LookedUp | string> {
  if (limit === 0) return 'WSM_IMPORT_LOOKUP_LIMIT=0 looks up no number';
  const named = typeof numbers === 'function' ? await numbersUpTo(numbers, limit) : new Set(numbers);
  if (named === undefined || named.size > limit)
    return `the file names over ${countText(limit)} numbers, more than are looked up one by one (WSM_IMPORT_LOOKUP_LIMIT)`;
  try {
    const untrusted = await searchFindsNumbers(client);
    if (untrusted !== undefined) return `${untrusted}, so the file's contacts cannot be found by their numbers`;
    const lookup = await lookUpNumbers(ctx, client, [...named], concurrencyOf(ctx, {}));
    if (lookup.unknown > 0)
      note(
        `${countText(lookup.unknown)} of the file's numbers could not be looked up (a search failed or gave too many other contacts): no before-image was taken for them, and undo leaves their contacts as they are`,
      );
    const live = liveContacts([...lookup.found.values(), ...lookup.padded]);
    // A search that found none such for any new number may be one that never finds them.
    const untold = lookup.absent.size > 0 && lookup.padded.length === 0 ? await searchFindsEndings(client) : undefined;
    return { live, absent: lookup.absent, ...(untold !== undefined ? { paddedUntold: untold } : {}) };
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
    return `the workspace's contacts could not be searched (${(error as Error).message})`;
  }
}
