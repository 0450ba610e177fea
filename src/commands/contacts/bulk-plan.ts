// `contacts update|delete --from` against the live workspace: their plan (plan-update.ts), made
// the same way for --dry-run (rendered by plan-render.ts) and for a real update, which executes it:
// the rows it finds unchanged are left unsent, and the changes that look made by a spreadsheet are
// left out of each request (kept as stored) unless --apply-flagged.
import type { WsmClient } from '../../api/client.js';
import { spreadsheetWritten } from './spreadsheet-damage.js';
import type { Context } from '../../cli/context.js';
import type { BulkAction, BulkStep } from './bulk-execute.js';
import type { BulkItem, PendingUpdate } from './bulk-input.js';
import type { LiveContacts, Plan, PlannedContact, PlanRow } from './plan.js';
import { planDelete, planUpdate, unsentEmptied } from './plan-update.js';
import { readRowsContacts } from './plan-live.js';
import { SHOWN_ALL, type Shown, shownOn } from './plan-unshown.js';

/** The rows of a bulk input as a plan reads them; group ids are named from the live contacts' groups. */
function planRows(items: BulkItem[], live: LiveContacts): PlanRow[] {
  const groupNames = new Map<number, string>();
  for (const contact of live.byId.values()) for (const group of contact.contact_groups ?? []) groupNames.set(Number(group.id), group.name);
  return items.map((item) => {
    const row: PlanRow = {
      place: item.where,
      id: Number(item.id),
      ...(item.number !== undefined ? { number: item.number } : {}),
      ...(item.emptied !== undefined ? { emptied: item.emptied } : {}),
      ...(item.merged !== undefined ? { merged: item.merged } : {}),
    };
    const body = item.body;
    if (body === undefined) return row;
    const groups =
      body.contact_groups === undefined
        ? undefined
        : (item.groupNames ?? [body.contact_groups].flat().map((id) => groupNames.get(Number(id)) ?? `group ${id}`));
    row.sets = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.email !== undefined ? { email: body.email } : {}),
      ...(body.gender !== undefined ? { gender: body.gender } : {}),
      ...(body.status !== undefined
        ? { status: body.status === true || body.status === 1 || body.status === '1' || body.status === 'true' }
        : {}),
      ...(body.fields !== undefined ? { fields: body.fields } : {}),
      ...(groups !== undefined ? { groups: { names: groups, replace: true } } : {}),
    };
    return row;
  });
}

/**
 * The rows whose contacts must be read whatever the workspace's size: an update's row without a
 * name (the API needs the contact's own), and one holding a value a spreadsheet may have changed
 * (only a stored value tells damage from an edit) unless --apply-flagged sends it anyway.
 */
function neededRows(kind: 'delete' | 'update', items: BulkItem[], applyFlagged: boolean): Set<number> {
  if (kind === 'delete') return new Set();
  const values = (item: BulkItem) => [item.body?.name, item.body?.email, ...Object.values(item.body?.fields ?? {})];
  const holdable = (item: BulkItem) =>
    !applyFlagged && values(item).some((value) => typeof value === 'string' && spreadsheetWritten(value));
  return new Set(items.filter((item) => item.body?.name === undefined || holdable(item)).map((item) => Number(item.id)));
}

/** A bulk run's plan and the contacts it was made against: the run executes the one, its names and before-images come from the other. */
export interface BulkPlan {
  plan: Plan;
  live: LiveContacts;
  /** The rows as planned, and whether the server's contacts show groups and custom fields (what a row empties that they do not is not sent). */
  rows: PlanRow[];
  shown: Shown;
}

/**
 * What the bulk input does to the live workspace, made by one read for the dry run and the real
 * run alike (plan-live.ts readRowsContacts): only the rows' contacts, as cheaply as the server
 * allows; a contact the read did not reach is planned as sent as its row gives it.
 */
export async function bulkPlan(
  ctx: Context,
  client: WsmClient,
  kind: 'delete' | 'update',
  items: BulkItem[],
  concurrency: number,
  applyFlagged: boolean,
): Promise<BulkPlan> {
  const ids = items.map((item) => Number(item.id));
  const { live, unread } = await readRowsContacts(ctx, client, concurrency, { ids, needed: neededRows(kind, items, applyFlagged) });
  const rows = planRows(items, live);
  if (kind === 'delete') return { plan: planDelete(rows, live, unread), live, rows, shown: SHOWN_ALL };
  const setsUnshowable = items.some((item) => item.body?.contact_groups !== undefined || item.body?.fields !== undefined);
  const shown = setsUnshowable ? await shownOn(client, live.byId.values()) : SHOWN_ALL;
  return { plan: planUpdate(rows, live, applyFlagged, { ...(unread !== undefined ? { unread } : {}), shown }), live, rows, shown };
}

/** The body without the values `keys` names by plan key (`email`, `contact_groups`, `fields.city`): held, or emptied and not shown by the server. */
function without(body: PendingUpdate, keys: string[]): PendingUpdate {
  if (keys.length === 0) return body;
  const sent = { ...body, ...(body.fields !== undefined ? { fields: { ...body.fields } } : {}) };
  for (const key of keys) {
    if (key.startsWith('fields.')) delete sent.fields?.[key.slice('fields.'.length)];
    else delete sent[key as 'email' | 'gender' | 'contact_groups'];
  }
  if (sent.fields !== undefined && Object.keys(sent.fields).length === 0) delete sent.fields;
  return sent;
}

/** The item without its held changes: the contact keeps those values (a held name is sent as stored: the API needs one). */
function withoutHeld(item: BulkItem, planned: PlannedContact): BulkItem {
  if (planned.held === undefined || item.body === undefined) return item;
  const body = {
    ...without(
      item.body,
      Object.keys(planned.held).filter((key) => key !== 'name'),
    ),
  };
  if (planned.held.name !== undefined) body.name = String(planned.held.name.from);
  return { ...item, body };
}

/**
 * A real update's steps: its plan executed. The plan's unchanged and skipped contacts are not
 * sent, nor those its read found missing from the workspace (its only invalid ones: they fail
 * unsent); its held changes are taken out of the others, and a contact it did not read is sent as
 * its row gives it.
 */
export function updateSteps(items: BulkItem[], { plan, live, rows, shown }: BulkPlan): BulkStep[] {
  return items.map((item, index): BulkStep => {
    const planned = plan.contacts[index];
    const before = live.byId.get(Number(item.id));
    const action: BulkAction =
      planned.action === 'unchanged' || planned.action === 'skipped'
        ? { kind: 'unsent', why: planned.action }
        : planned.action === 'invalid'
          ? { kind: 'absent', outcome: 'failed' }
          : { kind: 'update', body: without(withoutHeld(item, planned).body!, unsentEmptied(rows[index], shown)) };
    return { id: Number(item.id), ...(before !== undefined ? { before } : {}), action };
  });
}
