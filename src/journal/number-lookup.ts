// Contacts found by their numbers, one search each (`GET /contacts?search=<number>`, the published
// operation), for a workspace too large to read whole: the journal's before-images of an import's
// updates, and an undo's contacts of a change. The searches run on the page
// engine (runEach: a bounded window of requests, the transport's retries and 429 pacing). The
// published API does not say what a search matches, so nothing is taken on trust: a hit counts only
// when its stored number is the number asked (as the server stores numbers), never a substring;
// a probe first checks that the search finds a known contact by its number and narrows the list,
// and a number whose search gives too many other contacts is left unknown (neither found nor absent).
// A search matching parts of numbers (another probe says whether it does) also finds the number
// stored with more leading zeros, which an import's plan holds a new number beside.
import type { WsmClient } from '../api/client.js';
import { runEach, type EngineRequest, type Settled } from '../api/page-engine.js';
import { pageAfter, perPageWithinCap, type PageParams } from '../api/pagination.js';
import { PER_PAGE_MAX } from '../api/schemas/common.js';
import { normalizeNumber, type Contact } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { cannotListContacts, LIVE_READ_LIMIT } from '../commands/contacts/plan-live.js';

/**
 * The most numbers an import looks up one by one: each costs a request. Measured against 100,000
 * contacts (bench/journal-lookups.mjs, when the numbers an import created were looked up again
 * after it): 1,000 numbers added about 4 s to an import of 1.5 s, 10,000 added minutes; past this
 * many the journal would cost more than the import many times over.
 */
const LOOKUP_LIMIT = 1_000;
/** Pages of other contacts read for one number before it is left unknown (a search matching substrings). */
const PAGES_PER_NUMBER = 3;

/** A whole number from 0 to `most` in `name`, else `fallback`; any other value stops the command (exit 2). */
function limitFrom(ctx: Context, name: string, fallback: number, most: number): number {
  const text = ctx.env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  if (/^\d+$/.test(text) && Number(text) <= most) return Number(text);
  throw new UsageError(`${name} must be a whole number from 0 to ${most.toLocaleString('en-US')}, got "${text}"`);
}

/** WSM_IMPORT_READ_LIMIT: the most contacts an import reads whole before it is sent. */
export const importReadLimit = (ctx: Context): number => limitFrom(ctx, 'WSM_IMPORT_READ_LIMIT', LIVE_READ_LIMIT, 100_000);
/** WSM_IMPORT_LOOKUP_LIMIT: the most numbers an import into a larger workspace looks up one by one (0: none). */
export const importLookupLimit = (ctx: Context): number => limitFrom(ctx, 'WSM_IMPORT_LOOKUP_LIMIT', LOOKUP_LIMIT, 100_000);

/**
 * What the searches found: by number, the contact holding it, or null where none does; `unknown`,
 * those not told; `padded`, the contacts a search of an absent number found holding it with more
 * leading zeros (`00123` for `123`: a spreadsheet drops zeros, so the row may be that one damaged).
 */
export interface Lookup {
  found: Map<string, Contact>;
  absent: Set<string>;
  unknown: number;
  padded: Contact[];
}

type Page = Awaited<ReturnType<WsmClient['contacts']['list']>>;
/** One number's search: the contact holding it, null, or 'unknown'; and those holding it with more leading zeros. */
type Searched = { hit: Contact | null | 'unknown'; padded: Contact[] };

/** The pages a search for `query` answers, at most PAGES_PER_NUMBER of them, the largest the server takes; `more`: whether another follows. */
async function* searchPages(
  client: WsmClient,
  query: string,
  request: EngineRequest | undefined,
): AsyncGenerator<{ page: Page; more: boolean }> {
  let params: PageParams = { search: query, per_page: PER_PAGE_MAX, page: 1 };
  for (let read = 0; read < PAGES_PER_NUMBER; ) {
    let answer: Page;
    try {
      answer = await client.contacts.list(params, request);
    } catch (error) {
      const within = perPageWithinCap(error, params.per_page);
      if (within === null) throw error;
      params = { ...params, ...within };
      continue;
    }
    read += 1;
    const after = pageAfter(answer, Number(params.page ?? read), typeof params.per_page === 'number' ? params.per_page : undefined);
    yield { page: answer, more: after !== undefined };
    if (after === undefined) return;
    params = { ...params, ...after };
  }
}

/**
 * The contact holding `number` (exactly, as stored), null when the search says none does, 'unknown'
 * when it cannot tell; and the contacts it found holding `number` with more leading zeros.
 */
async function searchNumber(client: WsmClient, number: string, request: EngineRequest | undefined): Promise<Searched> {
  const unpadded = number.replace(/^0+/, '');
  const padded: Contact[] = [];
  for await (const { page, more } of searchPages(client, number, request)) {
    for (const contact of page.data) {
      const stored = normalizeNumber(String(contact.number));
      if (stored === number) return { hit: contact, padded };
      if (stored.length > number.length && stored.replace(/^0+/, '') === unpadded) padded.push(contact);
    }
    if (!more) return { hit: null, padded };
  }
  return { hit: 'unknown', padded };
}

/**
 * Why the server's search cannot be trusted to find contacts by number, or undefined when it
 * can: it must find a contact of the workspace by its number, and not answer the whole list.
 */
export async function searchFindsNumbers(client: WsmClient): Promise<string | undefined> {
  const first = await client.contacts.list({ per_page: 1 });
  const known = first.data[0];
  if (known === undefined) return undefined;
  const number = normalizeNumber(String(known.number));
  const { hit } = await searchNumber(client, number, undefined);
  if (hit === null || hit === 'unknown' || String(hit.id) !== String(known.id))
    return `the server's contact search did not find contact ${known.id} by its number ${number}`;
  const everyone = first.meta.total;
  const answered = (await client.contacts.list({ search: number, per_page: 1 })).meta.total;
  if (typeof everyone === 'number' && everyone > 1 && answered === everyone)
    return `the server's contact search for ${number} answered every contact of the workspace`;
  return undefined;
}

/**
 * Why the server's search cannot be trusted to find a number stored with more leading zeros than
 * the one searched (`00123` for `123`), or undefined when it can: a search for a contact's number
 * without its first digit must find that contact, as a search matching parts of numbers does (the
 * published API does not say what a search matches).
 */
export async function searchFindsEndings(client: WsmClient): Promise<string | undefined> {
  const known = (await client.contacts.list({ per_page: 1 })).data[0];
  if (known === undefined) return undefined;
  const ending = normalizeNumber(String(known.number)).slice(1);
  for await (const { page } of searchPages(client, ending, undefined))
    if (page.data.some((contact) => String(contact.id) === String(known.id))) return undefined;
  return `the server's contact search did not find contact ${known.id} by the end of its number, ${ending}`;
}

/**
 * Each number searched (several at once on the page engine): found, absent, or unknown (its
 * search failed, or gave too many other contacts). A token or server that may not list contacts
 * fails the whole lookup (the caller says why no before-image was taken).
 */
export async function lookUpNumbers(ctx: Context, client: WsmClient, numbers: readonly string[], concurrency: number): Promise<Lookup> {
  const lookup: Lookup = { found: new Map(), absent: new Set(), unknown: 0, padded: [] };
  const progress = ctx.io.progress('Looking up numbers', numbers.length);
  const settle = (number: string, result: Settled<Searched>) => {
    if (!result.ok && cannotListContacts(result.error)) throw result.error;
    return { number, ...(result.ok ? result.value : { hit: 'unknown' as const, padded: [] as Contact[] }) };
  };
  try {
    const searches = runEach(numbers, (number, request) => searchNumber(client, number, request), settle, {
      concurrency,
      notice: client.notice,
      describe: (number) => `the search for ${number}`,
      progress: (event) => progress.update(event.done, event.total),
    });
    for await (const { number, hit, padded } of searches) {
      if (hit === 'unknown') lookup.unknown += 1;
      else if (hit === null) lookup.absent.add(number);
      else lookup.found.set(number, hit);
      lookup.padded.push(...padded);
    }
  } finally {
    progress.done();
  }
  return lookup;
}
