// The plan's other side: the workspace's contacts, read through the published list on the page
// engine (several pages in flight), whole or only when there are few enough of them; or, for a
// bulk run's rows, only the contacts they name (readRowsContacts).
import type { WsmClient } from '../../api/client.js';
import { runEach, type EngineRequest, type Settled } from '../../api/page-engine.js';
import { MethodNotAllowedError, NotFoundError, PermissionDeniedError, UnsupportedEndpointError } from '../../api/errors.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { countText } from '../../cli/text.js';
import { walkContacts } from './contact-walk.js';
import { liveContacts, type LiveContacts } from './plan.js';

/** The most contacts read before a real run to compare it with the workspace (100 pages of the largest size): past it the read costs more than the run. */
export const LIVE_READ_LIMIT = 10_000;

/** Every contact of the workspace, read through the page engine (several pages in flight): the plan's other side. */
export async function readLiveContacts(ctx: Context, client: WsmClient, concurrency: number): Promise<LiveContacts> {
  return (await readLiveContactsUpTo(ctx, client, concurrency, Number.POSITIVE_INFINITY))!;
}

/** Every contact of the workspace when there are at most `limit`, else undefined: the list walked, and left once past it. */
export async function readLiveContactsUpTo(
  ctx: Context,
  client: WsmClient,
  concurrency: number,
  limit: number,
): Promise<LiveContacts | undefined> {
  const contacts = await collectContacts(ctx, client, concurrency, limit);
  return contacts === undefined ? undefined : liveContacts(contacts);
}

/** The token or server may not list contacts: a run that only compares with them goes on without them. */
export function cannotListContacts(error: unknown): boolean {
  return [PermissionDeniedError, NotFoundError, MethodNotAllowedError, UnsupportedEndpointError].some((kind) => error instanceof kind);
}

/**
 * The workspace's contacts when there are at most `limit`, else undefined: the total of a
 * one-row page decides (an empty workspace needs no more), or, from a server that does not say
 * its total, the walk stops past it.
 */
export async function readLiveContactsWithin(
  ctx: Context,
  client: WsmClient,
  concurrency: number,
  limit: number,
): Promise<LiveContacts | undefined> {
  const first = await client.contacts.list({ per_page: 1 });
  const total = first.meta.total;
  if (typeof total === 'number' && total > limit) return undefined;
  if (typeof total === 'number' && total <= first.data.length) return liveContacts(first.data);
  const contacts = await collectContacts(ctx, client, concurrency, limit);
  return contacts === undefined ? undefined : liveContacts(contacts);
}

/** The contacts a run named, each read by itself: those found, and those the server answered 404 for. */
export interface ReadOneByOne {
  live: LiveContacts;
  /** Ids the server says it does not hold: not in the workspace. An id whose read was refused is in neither. */
  absent: Set<number>;
}

/**
 * The contacts `ids` name, each read by itself (GET one contact, which wsm serve has), several in
 * flight: for a run naming a few contacts of a workspace too large to read whole. Undefined from a
 * server without GET one contact.
 */
export async function readContactsOneByOne(client: WsmClient, ids: number[], concurrency: number): Promise<ReadOneByOne | undefined> {
  const found: Contact[] = [];
  const absent = new Set<number>();
  const settle = (id: number, result: Settled<{ data: Contact }>) => {
    if (result.ok) found.push(result.value.data);
    else if (result.error instanceof NotFoundError) absent.add(id);
    else if (!cannotListContacts(result.error)) throw result.error;
  };
  const [first, ...rest] = ids;
  if (first === undefined) return { live: liveContacts(found), absent };
  // The first read says whether the server has GET one contact: without it, no more are asked.
  let answer: Settled<{ data: Contact }>;
  try {
    answer = { ok: true, value: await client.contacts.get(first) };
  } catch (error) {
    if (error instanceof UnsupportedEndpointError) return undefined;
    answer = { ok: false, error };
  }
  settle(first, answer);
  const read = (id: number, request: EngineRequest) => client.contacts.get(id, request);
  for await (const _ of runEach(rest, read, settle, { concurrency, notice: client.notice })) {
    // Each answer is kept by settle as it comes.
  }
  return { live: liveContacts(found), absent };
}

async function collectContacts(ctx: Context, client: WsmClient, concurrency: number, limit: number): Promise<Contact[] | undefined> {
  const contacts: Contact[] = [];
  for await (const contact of walkContacts(ctx, client, concurrency, 'Reading the workspace')) {
    contacts.push(contact);
    if (contacts.length > limit) return undefined;
  }
  return contacts;
}

/** The contacts a bulk run's rows name, as its plan read them (its dry run and its real run alike). */
export interface RowsRead {
  live: LiveContacts;
  /** The rows' contacts the read did not reach, and why: neither found nor known to be absent. */
  unread?: { ids: ReadonlySet<number>; why: string };
}

/** The contacts a bulk run's rows name (`ids`), and those among them it cannot send without their stored values (`needed`). */
interface RowsWanted {
  ids: number[];
  needed: ReadonlySet<number>;
}

/**
 * The contacts `ids` name, read as cheaply as the server allows: the list, where it has no more
 * pages than the rows have ids (and at most LIVE_READ_LIMIT contacts); otherwise each contact by
 * itself where the server can (wsm serve); otherwise the list walked until every row's contact is
 * found, stopping past LIVE_READ_LIMIT contacts once none of `needed` is missing (a row sent
 * without a name, or holding a value a spreadsheet may have changed, needs its stored values
 * whatever the cost). A token that may not list contacts reads none: every row is unread.
 */
export async function readRowsContacts(ctx: Context, client: WsmClient, concurrency: number, rows: RowsWanted): Promise<RowsRead> {
  const { ids } = rows;
  try {
    const first = await client.contacts.list({ per_page: 1 });
    const total = first.meta.total;
    if (typeof total === 'number' && total <= first.data.length) return { live: liveContacts(first.data) };
    const fewPages = typeof total === 'number' && total <= Math.min(LIVE_READ_LIMIT, ids.length * PER_PAGE_MAX);
    if (!fewPages) {
      const each = await readContactsOneByOne(client, ids, concurrency);
      if (each !== undefined) return refusedUnread(ids, each);
    }
    return await walkForRows(ctx, client, concurrency, rows);
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
    return { live: liveContacts([]), unread: { ids: new Set(ids), why: `the contacts could not be read (${(error as Error).message})` } };
  }
}

/** A read one by one: the ids neither found nor answered 404 (their reads refused) are unread, not absent. */
function refusedUnread(ids: number[], { live, absent }: ReadOneByOne): RowsRead {
  const refused = ids.filter((id) => !live.byId.has(id) && !absent.has(id));
  if (refused.length === 0) return { live };
  return { live, unread: { ids: new Set(refused), why: 'the server refused to read these contacts one by one' } };
}

/** The list walked for the rows' contacts: every contact up to the bound is kept, past it only the rows'. */
async function walkForRows(ctx: Context, client: WsmClient, concurrency: number, { ids, needed }: RowsWanted): Promise<RowsRead> {
  const missing = new Set(ids);
  let neededMissing = [...missing].filter((id) => needed.has(id)).length;
  const contacts: Contact[] = [];
  let read = 0;
  for await (const contact of walkContacts(ctx, client, concurrency, 'Reading the workspace')) {
    read += 1;
    const id = Number(contact.id);
    const named = missing.delete(id);
    if (named && needed.has(id)) neededMissing -= 1;
    if (named || read <= LIVE_READ_LIMIT) contacts.push(contact);
    if (missing.size === 0) break;
    if (read > LIVE_READ_LIMIT && neededMissing === 0) {
      const why = `the workspace holds over ${countText(LIVE_READ_LIMIT)} contacts and the server cannot read one contact by itself`;
      return { live: liveContacts(contacts), unread: { ids: missing, why } };
    }
  }
  return { live: liveContacts(contacts) };
}
