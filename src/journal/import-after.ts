// After `--wait` saw an import finish: the contacts now holding the numbers its rows named, read
// from the contact list for the journal (what it created, and what it left of those it updated).
// Only those contacts are kept, and the read stops once each number is found. The pages are read
// last first: a server that lists contacts in the order they were made (wsm serve, a Laravel
// service by default) has an import's new contacts on its last pages, so an import of a few new
// numbers into a workspace of many reads a page or two, not the whole list. The published API does
// not say the list's order: in any other order the result is the same, only more pages are read
// (all of them where a number is not found, as for a row the server refused).
import type { WsmClient } from '../api/client.js';
import { runEach, type EngineRequest } from '../api/page-engine.js';
import { perPageWithinCap } from '../api/pagination.js';
import { normalizeNumber, PER_PAGE_MAX, type Contact } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { walkContacts } from '../commands/contacts/contact-walk.js';
import { concurrencyOf } from '../commands/shared/concurrency.js';

/** The contacts found, by their number as the server stores it. */
export type FoundByNumber = Map<string, Contact>;

const LABEL = "Reading the import's contacts";

/**
 * The contacts holding the `named` numbers (the file's), when the workspace holds at most
 * `limit` contacts (the total of a one-row page decides), else undefined.
 */
export async function contactsHoldingNumbers(
  ctx: Context,
  client: WsmClient,
  named: ReadonlySet<string>,
  limit: number,
): Promise<FoundByNumber | undefined> {
  const found: FoundByNumber = new Map();
  if (named.size === 0) return found;
  const first = await client.contacts.list({ per_page: 1 });
  const total = first.meta.total;
  if (typeof total === 'number' && total > limit) return undefined;
  // Kept while numbers are still missing; true once each is found.
  const keep = (contacts: Contact[]): boolean => {
    for (const contact of contacts) {
      const number = normalizeNumber(String(contact.number));
      if (named.has(number)) found.set(number, contact);
    }
    return found.size === named.size;
  };
  if (keep(first.data) || total === first.data.length) return found;
  if (typeof total === 'number') {
    const lastFirst = await readLastFirst(ctx, client, Math.ceil(total / PER_PAGE_MAX), keep);
    if (lastFirst !== 'per_page refused') return found;
  }
  // A server that gives no total, or takes fewer rows a page: walked from page 1, as every list is.
  let read = 0;
  for await (const contact of walkContacts(ctx, client, concurrencyOf(ctx, {}), LABEL)) {
    if (keep([contact])) break;
    if (++read > limit) return undefined;
  }
  return found;
}

/**
 * Pages `pages` to 1 until `keep` says each number is found: the last alone first (where an
 * import's new contacts usually are), then the others several in flight on the page engine.
 */
async function readLastFirst(
  ctx: Context,
  client: WsmClient,
  pages: number,
  keep: (contacts: Contact[]) => boolean,
): Promise<'read' | 'per_page refused'> {
  const pageOf = async (page: number, request?: EngineRequest) =>
    (await client.contacts.list({ page, per_page: PER_PAGE_MAX }, request)).data;
  let last: Contact[];
  try {
    last = await pageOf(pages);
  } catch (error) {
    if (perPageWithinCap(error, PER_PAGE_MAX) !== null) return 'per_page refused';
    throw error;
  }
  if (keep(last) || pages === 1) return 'read';
  const progress = ctx.io.progress(LABEL, pages);
  const order = Array.from({ length: pages - 1 }, (_, index) => pages - 1 - index);
  let done = 1;
  try {
    const read = runEach(order, pageOf, (_page, result) => result, { concurrency: concurrencyOf(ctx, {}), notice: client.notice });
    for await (const result of read) {
      if (!result.ok) throw result.error;
      progress.update(++done, pages);
      if (keep(result.value)) break;
    }
    return 'read';
  } finally {
    progress.done();
  }
}
