// How a plan (plan.ts) is shown: -o json (or --json/--jq) gives it as data, the counts and every
// contact's changes; otherwise one line a contact that changes (unchanged ones are counted), each
// changed field `from -> to` under it, the spreadsheet flags marked `!`, the notes (what a row asks
// that will not be done), and the counts last.
import type { WsmClient } from '../../api/client.js';
import { MethodNotAllowedError, NotFoundError, PermissionDeniedError, UnsupportedEndpointError } from '../../api/errors.js';
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { countOf, countText } from '../../cli/text.js';
import { walkContacts } from './contact-walk.js';
import { liveContacts, type LiveContacts, type Plan, type PlannedContact } from './plan.js';

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

/** Flagged contacts named one by one before the question about them; beyond them a count. */
export const FLAGGED_NAMED = 10;

/**
 * Changes that look made by a spreadsheet, said before a real run: each of the first named
 * contacts' reasons (`who` names the contact), the others counted, then the question (on a
 * terminal; --yes otherwise). `ask` gives the question and what --yes is needed for.
 */
export async function askAboutFlagged(
  ctx: Context,
  named: PlannedContact[],
  flagged: number,
  who: (contact: PlannedContact) => string,
  ask: (what: string) => [question: string, needsYes: string],
): Promise<void> {
  if (flagged === 0) return;
  for (const contact of named.slice(0, FLAGGED_NAMED)) for (const why of contact.suspicious) ctx.output.warn(`${who(contact)}: ${why}`);
  const said = Math.min(named.length, FLAGGED_NAMED);
  if (flagged > said) ctx.output.warn(`and ${countText(flagged - said)} more contacts (--dry-run lists them all)`);
  await ctx.confirm(...ask(`${countOf(flagged, 'contact')} with changes that look made by a spreadsheet`));
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

const MARK: Record<PlannedContact['action'], string> = { create: '+', update: '~', unchanged: '=', invalid: 'x', delete: '-', absent: '·' };
const shown = (value: unknown) => JSON.stringify(value ?? null);

function contactLine(contact: PlannedContact): string {
  const who =
    contact.id !== null ? `contact ${contact.id}${contact.number !== null ? ` (${contact.number})` : ''}` : (contact.number ?? '');
  const what = contact.action === 'absent' ? `${who}: not in the workspace (already gone)` : `${contact.action} ${who}`.trimEnd();
  const lines = [`${MARK[contact.action]} ${contact.place}: ${what}`];
  for (const [key, change] of Object.entries(contact.changes)) {
    lines.push(
      contact.action === 'create' ? `    ${key}: ${shown(change.to)}` : `    ${key}: ${shown(change.from)} -> ${shown(change.to)}`,
    );
  }
  for (const error of contact.errors ?? []) lines.push(`    ${error}`);
  for (const why of contact.suspicious) lines.push(`    ! ${why}`);
  for (const note of contact.notes ?? []) lines.push(`    note: ${note}`);
  return lines.join('\n') + '\n';
}

/** The counts, as the last line says them. */
function planSummary(plan: Plan): string {
  const parts =
    plan.delete !== undefined
      ? [`${countText(plan.delete)} to delete`, `${countText(plan.absent ?? 0)} already gone`]
      : [
          `${countText(plan.create)} to create`,
          `${countText(plan.update)} to update`,
          `${countText(plan.unchanged)} unchanged`,
          `${countText(plan.invalid)} invalid`,
        ];
  const flagged = plan.suspicious > 0 ? `; ${countText(plan.suspicious)} with a change that looks made by a spreadsheet (marked !)` : '';
  return `Plan: ${parts.join(', ')}${flagged}.`;
}

export async function renderPlan(ctx: Context, plan: Plan): Promise<void> {
  if (ctx.output.structured || ctx.output.selecting) {
    await ctx.output.record(plan);
    return;
  }
  // An unchanged contact is counted, not listed, unless the row asks what the run will not do.
  const lines = plan.contacts.filter((contact) => contact.action !== 'unchanged' || contact.notes !== undefined).map(contactLine);
  ctx.output.text(`${lines.join('')}${planSummary(plan)}\n`);
}
