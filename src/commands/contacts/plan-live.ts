// The plan's other side: the workspace's contacts, read through the published list on the page
// engine (several pages in flight), whole or only when there are few enough of them.
import type { WsmClient } from '../../api/client.js';
import { MethodNotAllowedError, NotFoundError, PermissionDeniedError, UnsupportedEndpointError } from '../../api/errors.js';
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { walkContacts } from './contact-walk.js';
import { liveContacts, type LiveContacts } from './plan.js';

/** The most contacts read before a real run to compare it with the workspace (100 pages of the largest size): past it the read costs more than the run. */
export const LIVE_READ_LIMIT = 10_000;

/** Every contact of the workspace, read through the page engine (several pages in flight): the plan's other side. */
export async function readLiveContacts(ctx: Context, client: WsmClient, concurrency: number): Promise<LiveContacts> {
  return liveContacts((await collectContacts(ctx, client, concurrency, Number.POSITIVE_INFINITY))!);
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

async function collectContacts(ctx: Context, client: WsmClient, concurrency: number, limit: number): Promise<Contact[] | undefined> {
  const contacts: Contact[] = [];
  for await (const contact of walkContacts(ctx, client, concurrency, 'Reading the workspace')) {
    contacts.push(contact);
    if (contacts.length > limit) return undefined;
  }
  return contacts;
}
