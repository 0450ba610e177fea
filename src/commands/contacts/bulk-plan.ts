// `contacts update|delete --from` against the live workspace: their plan (plan-update.ts) for
// --dry-run (rendered by plan-render.ts), and, before a real update, the same plan made into what
// is sent: the rows it finds unchanged are left unsent, and the changes that look made by a
// spreadsheet are left out of each request (kept as stored) unless --apply-flagged.
import type { WsmClient } from '../../api/client.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import { isScientificNotation } from '../../formats/csv/cells.js';
import type { Context } from '../../cli/context.js';
import type { BulkAction, BulkStep } from './bulk-execute.js';
import type { BulkItem } from './bulk-input.js';
import type { LiveContacts, Plan, PlannedContact, PlanRow } from './plan.js';
import { planDelete, planUpdate } from './plan-update.js';
import { cannotListContacts, LIVE_READ_LIMIT, readContactsOneByOne, readLiveContacts, readLiveContactsWithin } from './plan-live.js';

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

/** What the bulk input would do to the live workspace: every contact's changes, nothing sent. */
export async function bulkPlan(
  ctx: Context,
  client: WsmClient,
  kind: 'delete' | 'update',
  items: BulkItem[],
  concurrency: number,
  applyFlagged: boolean,
): Promise<Plan> {
  const live = await readLiveContacts(ctx, client, concurrency);
  const rows = planRows(items, live);
  return kind === 'delete' ? planDelete(rows, live) : planUpdate(rows, live, applyFlagged);
}

/** A value a spreadsheet may have changed: one in scientific notation, or digits alone (leading zeros may be gone). */
const maybeDamaged = (value: string) => /^\d+$/.test(value.trim()) || isScientificNotation(value);

/** What a real update does: a step for each contact as its plan leaves it, and the read the plan made. */
export interface UpdateToSend {
  steps: BulkStep[];
  /** The workspace as read for the plan; undefined where it was not read. */
  live?: LiveContacts;
  /** Cells left out because they look changed by a spreadsheet. */
  held: number;
}

/** The item without its held changes: the contact keeps those values (a held name is sent as stored: the API needs one). */
function withoutHeld(item: BulkItem, planned: PlannedContact): BulkItem {
  if (planned.held === undefined || item.body === undefined) return item;
  const body = { ...item.body, ...(item.body.fields !== undefined ? { fields: { ...item.body.fields } } : {}) };
  for (const [key, change] of Object.entries(planned.held)) {
    if (key.startsWith('fields.')) delete body.fields?.[key.slice('fields.'.length)];
    else if (key === 'name') body.name = String(change.from);
    else delete body[key as 'email' | 'gender'];
  }
  return { ...item, body };
}

/**
 * Before a real update: the plan against the workspace, when it holds at most LIVE_READ_LIMIT
 * contacts and no more pages of them than the file has rows, or whatever its size when the file
 * holds a value a spreadsheet may have changed (only such a value can be held); otherwise against
 * the rows' own contacts, read one by one where the server can. The plan's unchanged and skipped
 * items are not sent, its held changes are taken out of the others. Without a plan (a large
 * workspace on a server that cannot read one contact, or a token that may not list contacts)
 * every row is sent as it is. The read is returned with the steps: the run reads the workspace once.
 */
export async function prepareUpdate(
  ctx: Context,
  client: WsmClient,
  items: BulkItem[],
  concurrency: number,
  applyFlagged: boolean,
): Promise<UpdateToSend> {
  let live: LiveContacts | undefined;
  try {
    // Read when the pages cost no more requests than the rows' own updates: two ids in a large workspace send two.
    live = await readLiveContactsWithin(ctx, client, concurrency, Math.min(LIVE_READ_LIMIT, items.length * PER_PAGE_MAX));
    const values = (item: BulkItem) => [item.body?.name, item.body?.email, ...Object.values(item.body?.fields ?? {})];
    const holdable = !applyFlagged && items.some((item) => values(item).some((value) => typeof value === 'string' && maybeDamaged(value)));
    if (live === undefined && holdable) live = await readLiveContacts(ctx, client, concurrency);
    // A workspace too large to read for these rows: the rows' own contacts, each read by itself
    // (the journal's before-images and the names need them anyway), so an unchanged one is not sent either.
    live ??= await readContactsOneByOne(
      client,
      items.map((item) => Number(item.id)),
      concurrency,
    );
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
  }
  if (live === undefined)
    return { steps: items.map((item) => ({ id: Number(item.id), action: { kind: 'update', body: item.body! } })), held: 0 };
  const plan = planUpdate(planRows(items, live), live, applyFlagged);
  const steps = items.map((item, index): BulkStep => {
    const planned = plan.contacts[index];
    const before = live.byId.get(Number(item.id));
    const action: BulkAction =
      planned.action === 'unchanged' || planned.action === 'skipped'
        ? { kind: 'unsent', why: planned.action }
        : { kind: 'update', body: withoutHeld(item, planned).body! };
    return { id: Number(item.id), ...(before !== undefined ? { before } : {}), action };
  });
  return { steps, live, held: plan.held };
}
