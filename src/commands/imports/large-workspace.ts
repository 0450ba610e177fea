// What an import plans against in a workspace of more contacts than WSM_IMPORT_READ_LIMIT, the
// real run and the dry run alike (so that the dry run says what the run does): the contacts its
// file's numbers name, each found by a search (journal/number-lookup.ts), up to
// WSM_IMPORT_LOOKUP_LIMIT numbers. When every number was looked up the plan is as exact as one
// made against the whole workspace: a stored value a row would damage is held, a number of the
// file written with and without leading zeros is left out only where the shorter one is not
// stored, and a new number a contact stores with more leading zeros is held (its search finds
// that contact, where the server's search matches parts of numbers; a server whose search does
// not is said, and such a row goes as a new contact). Otherwise only the numbers written both ways are looked up (a few), so that no update of
// a stored number is left out as a spreadsheet's twin; the other rows are sent unread.
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import { countOf } from '../../cli/text.js';
import { beforeByNumber, type LookedUp } from '../../journal/import-lookup.js';
import { importLookupLimit, importReadLimit } from '../../journal/number-lookup.js';
import { liveContacts } from '../contacts/plan.js';
import type { FileScan } from './hold-scan.js';

/** What a plan reads of the file before the workspace is compared: its twins (hold-scan.ts), and its numbers up to a bound (file-numbers.ts). */
export interface FileReads {
  scan: () => Promise<FileScan>;
  numbers: (most: number) => Promise<Set<string> | undefined>;
}

/** The contacts found, the numbers found held by none; `unread`: why not every number of the file was looked up (the rows then go unread). */
export type LargeWorkspace = LookedUp & { unread?: string };

/** The numbers looked up, every one told found or absent; else why not. */
async function lookedUp(ctx: Context, client: WsmClient, numbers: Set<string>, lookups: number): Promise<LookedUp | string> {
  let untold: string | undefined;
  const found = await beforeByNumber(ctx, client, numbers, lookups, (sentence) => {
    untold = sentence;
  });
  // A number neither found nor absent could be either: the plan would guess, so none is taken.
  return typeof found === 'string' ? found : (untold ?? found);
}

/** How many contacts an import reads whole (WSM_IMPORT_READ_LIMIT) and numbers it looks up by itself past that (WSM_IMPORT_LOOKUP_LIMIT): read before any request, so that one refused (exit 2) stops the import before it begins. */
export const importLimits = (ctx: Context): { limit: number; lookups: number } => ({
  limit: importReadLimit(ctx),
  lookups: importLookupLimit(ctx),
});

/** `the workspace holds over 10,000 contacts`: the start of each line about a workspace too large to read. */
export const workspaceOver = (limit: number): string => `the workspace holds over ${countOf(limit, 'contact')}`;

/**
 * The contacts an import into a workspace over `limit` contacts plans against, said in one line.
 * `numbers`: the file's, or undefined past `lookups`; `twins`: its numbers written both ways.
 */
export async function largeWorkspace(
  ctx: Context,
  client: WsmClient,
  { limit, lookups }: { limit: number; lookups: number },
  numbers: (most: number) => Promise<Set<string> | undefined>,
  twins: ReadonlyMap<string, string>,
): Promise<LargeWorkspace> {
  const over = workspaceOver(limit);
  const named = lookups === 0 ? undefined : await numbers(lookups);
  let why =
    lookups === 0
      ? 'WSM_IMPORT_LOOKUP_LIMIT=0 looks up no number'
      : `the file names over ${countOf(lookups, 'number')}, more than are looked up one by one (WSM_IMPORT_LOOKUP_LIMIT)`;
  if (named !== undefined) {
    const found = await lookedUp(ctx, client, named, lookups);
    if (typeof found !== 'string') {
      // A new number beside a stored one with more leading zeros is held only where the search finds such a one.
      const untold =
        found.paddedUntold === undefined
          ? ''
          : `; ${found.paddedUntold}, so a new number is not held where a contact stores it with more leading zeros (as a spreadsheet drops them)`;
      ctx.output.notice(
        `${over}: the rows were compared with the contacts of their ${countOf(named.size, 'number')}, each looked up by itself${untold}`,
      );
      return found;
    }
    why = found;
  }
  const twinNumbers = new Set(twins.keys());
  const twinsFound = twinNumbers.size > 0 && twinNumbers.size <= lookups ? await lookedUp(ctx, client, twinNumbers, lookups) : undefined;
  ctx.output.notice(`${over} and ${why}: the rows were checked for scientific notation only, not against them`);
  const unread = `${over} and ${why}`;
  if (twinsFound === undefined || typeof twinsFound === 'string') return { live: liveContacts([]), absent: new Set(), unread };
  return { ...twinsFound, unread };
}
