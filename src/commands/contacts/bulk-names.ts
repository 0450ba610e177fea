// The names `contacts update --from` needs: the API requires `name` on every update, and a line
// without one (ids one a line, an empty `name` cell) keeps the contact's own. The published API has no GET of
// one contact, so the contact list is the way every server offers: walked on the page engine
// (pages in parallel, 100 contacts a request), stopping once every name is found. Where the
// server has GET one contact (wsm serve) and the ids are fewer than the list's pages, each name
// is read with it instead, inside the item's own request window (fewer requests in all). The
// run's plan reads every unnamed row's contact (bulk-plan.ts), so the names come from that read;
// the list is asked again only for contacts the plan could not read at all.
import type { WsmClient } from '../../api/client.js';
import { NotFoundError, UnsupportedEndpointError } from '../../api/errors.js';
import type { EngineRequest } from '../../api/page-engine.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import { countText } from '../../cli/text.js';
import type { BulkStep } from './bulk-execute.js';
import type { BulkPlan } from './bulk-plan.js';
import { walkContacts } from './contact-walk.js';
import type { LiveContacts } from './plan.js';

export interface NameReader {
  /** The current name of contact `id`; throws when the server has no such contact. */
  nameOf(id: string, request: EngineRequest): Promise<string>;
}

const notListed = (id: string) => new CliError(`contact ${id} is not in this workspace's contact list`, ExitCode.notFound);

/** Names found in the list: one map, only for the ids asked about. */
function fromMap(names: Map<string, string>): NameReader {
  return {
    nameOf: async (id) => {
      const name = names.get(id);
      if (name === undefined) throw notListed(id);
      return name;
    },
  };
}

/**
 * Where each update without a name finds the contact's own: the plan's read of the workspace,
 * nothing read again; only a contact the plan could not read (a token that may not list contacts)
 * is asked of the server on its own, which then says why it cannot be.
 */
export async function namesFor(
  ctx: Context,
  client: WsmClient,
  steps: BulkStep[],
  { plan, live }: BulkPlan,
  concurrency: number,
): Promise<NameReader> {
  const fromLive = namesOfLive(live);
  const unread = steps.flatMap((step, index) =>
    step.action.kind === 'update' && step.action.body.name === undefined && plan.contacts[index].unread !== undefined
      ? [String(step.id)]
      : [],
  );
  if (unread.length === 0) return fromLive;
  const asked = await nameReader(ctx, client, unread, concurrency);
  return { nameOf: (id, request) => (live.byId.has(Number(id)) ? fromLive : asked).nameOf(id, request) };
}

/** The names the run's one read of the workspace found: nothing read again. */
function namesOfLive(live: LiveContacts): NameReader {
  return {
    nameOf: async (id) => {
      const name = live.byId.get(Number(id))?.name;
      if (typeof name !== 'string') throw notListed(id);
      return name;
    },
  };
}

/**
 * How the names of `ids` are read: page 1 of the list first (it also says how many pages there
 * are), then GET one per remaining id where that is supported and takes fewer requests, otherwise
 * a walk of the rest of the list.
 */
async function nameReader(ctx: Context, client: WsmClient, ids: string[], concurrency: number): Promise<NameReader> {
  const wanted = new Set(ids);
  const names = new Map<string, string>();
  const note = (line: string) => ctx.globals.verbose && ctx.io.err(line + '\n');
  const take = (contact: { id?: unknown; name?: unknown }) => {
    const id = String(contact.id);
    if (wanted.has(id) && typeof contact.name === 'string') names.set(id, contact.name);
  };
  const first = await client.contacts.list({ page: 1, per_page: PER_PAGE_MAX });
  first.data.forEach(take);
  const remaining = ids.filter((id) => !names.has(id));
  if (remaining.length === 0) return fromMap(names);
  const pages = first.meta.last_page;
  if (pages === undefined || remaining.length < pages) {
    let supported: boolean;
    try {
      take((await client.contacts.get(remaining[0])).data);
      supported = true;
    } catch (error) {
      // A 404 of that one contact still says the read exists.
      if (error instanceof NotFoundError) supported = true;
      else if (error instanceof UnsupportedEndpointError) supported = false;
      else throw error;
    }
    if (supported) {
      note(
        `reading the names of ${countText(remaining.length)} contacts with GET one contact each (the list has ${pages === undefined ? 'an unknown number of' : countText(pages)} pages)`,
      );
      return { nameOf: async (id, request) => names.get(id) ?? String((await client.contacts.get(id, request)).data.name) };
    }
  }
  note(
    `reading the names of ${countText(remaining.length)} contacts from the contact list (${pages === undefined ? 'page by page' : `${countText(pages)} pages`})`,
  );
  let missing = remaining.length;
  for await (const contact of walkContacts(ctx, client, concurrency, 'Reading contact names', pages)) {
    const id = String(contact.id);
    if (!wanted.has(id) || names.has(id)) continue;
    take(contact);
    missing -= 1;
    if (missing === 0) break; // every name found: the walk stops
  }
  return fromMap(names);
}
