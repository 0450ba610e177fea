// The contacts an undo compares a change with: the whole list, or, in a workspace too large to read
// whole (over WSM_IMPORT_READ_LIMIT contacts, as for an import), the contacts the change's records
// name, each found by its number (number-lookup.ts; a contact's number never changes, an update
// ignores it), when they name at most WSM_IMPORT_LOOKUP_LIMIT numbers. What the searches cannot
// settle (a search that does not find numbers, a number left unknown) falls back to the whole list:
// an undo's plan is never made from less than the workspace as it is.
import type { WsmClient } from '../api/client.js';
import { normalizeNumber } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { liveContacts, type LiveContacts } from '../commands/contacts/plan.js';
import { readLiveContacts, readLiveContactsWithin } from '../commands/contacts/plan-live.js';
import { importLookupLimit, importReadLimit, lookUpNumbers, searchFindsNumbers } from './number-lookup.js';
import type { JournalRecord } from './records.js';

export async function contactsForUndo(
  ctx: Context,
  client: WsmClient,
  records: JournalRecord[],
  concurrency: number,
): Promise<LiveContacts> {
  const numbers = new Set<string>();
  for (const record of records) {
    if (record.kind !== 'contact') continue;
    const number = record.before?.number ?? record.after?.number ?? record.number;
    if (number !== undefined) numbers.add(normalizeNumber(number));
  }
  const whole = await readLiveContactsWithin(ctx, client, concurrency, importReadLimit(ctx));
  if (whole !== undefined) return whole;
  if (numbers.size <= importLookupLimit(ctx) && (await searchFindsNumbers(client)) === undefined) {
    const lookup = await lookUpNumbers(ctx, client, [...numbers], concurrency);
    if (lookup.unknown === 0) return liveContacts(lookup.found.values());
  }
  return readLiveContacts(ctx, client, concurrency);
}
