// `contacts update|delete --from` against the live workspace: their plan (plan.ts) for --dry-run
// (rendered by plan-render.ts), and, before a real update, the same plan: its unchanged rows are
// left unsent (what you see is what the run does), and the changes that look made by a
// spreadsheet are asked about first.
import type { WsmClient } from '../../api/client.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import { isScientificNotation } from '../../formats/csv/cells.js';
import type { Context } from '../../cli/context.js';
import type { BulkItem } from './bulk-input.js';
import { planDelete, planUpdate, type LiveContacts, type Plan, type PlanRow } from './plan.js';
import { askAboutFlagged, cannotListContacts, LIVE_READ_LIMIT, readLiveContacts, readLiveContactsWithin } from './plan-render.js';

/** The rows of a bulk input as a plan reads them; group ids are named from the live contacts' groups. */
function planRows(items: BulkItem[], live: LiveContacts): PlanRow[] {
  const groupNames = new Map<number, string>();
  for (const contact of live.byId.values()) for (const group of contact.contact_groups ?? []) groupNames.set(Number(group.id), group.name);
  return items.map((item) => {
    const row: PlanRow = { place: item.where, id: Number(item.id), ...(item.number !== undefined ? { number: item.number } : {}) };
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
): Promise<Plan> {
  const live = await readLiveContacts(ctx, client, concurrency);
  const rows = planRows(items, live);
  return kind === 'delete' ? planDelete(rows, live) : planUpdate(rows, live);
}

/** A value a spreadsheet may have changed: one in scientific notation, or digits alone (leading zeros may be gone). */
const maybeDamaged = (value: string) => /^\d+$/.test(value.trim()) || isScientificNotation(value);

/** The flagged changes of a plan, named (the first ten), then asked about (on a terminal; --yes otherwise). */
async function askAboutPlan(ctx: Context, plan: Plan): Promise<void> {
  const flagged = plan.contacts.filter((contact) => contact.suspicious.length > 0);
  await askAboutFlagged(
    ctx,
    flagged,
    flagged.length,
    (contact) => `${contact.place}, contact ${contact.id}`,
    (what) => [`Update ${what}?`, `updating ${what}`],
  );
}

/**
 * Before a real update: the plan against the workspace, when it holds at most LIVE_READ_LIMIT
 * contacts and no more pages of them than the file has rows; its flagged changes are asked about,
 * and the items it finds unchanged are given back, to be left unsent. Otherwise (or for a token
 * that may not list contacts) the workspace is read only when the file holds a value a
 * spreadsheet may have changed, and every row is sent.
 */
export async function prepareUpdate(ctx: Context, client: WsmClient, items: BulkItem[], concurrency: number): Promise<Set<BulkItem>> {
  let live: LiveContacts | undefined;
  try {
    // Read when the pages cost no more requests than the rows' own updates: two ids in a large workspace send two.
    live = await readLiveContactsWithin(ctx, client, concurrency, Math.min(LIVE_READ_LIMIT, items.length * PER_PAGE_MAX));
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
  }
  if (live === undefined) {
    const values = (item: BulkItem) => [item.body?.name, ...Object.values(item.body?.fields ?? {})];
    if (items.some((item) => values(item).some((value) => typeof value === 'string' && maybeDamaged(value))))
      await askAboutPlan(ctx, await bulkPlan(ctx, client, 'update', items, concurrency));
    return new Set();
  }
  const plan = planUpdate(planRows(items, live), live);
  await askAboutPlan(ctx, plan);
  return new Set(items.filter((_, index) => plan.contacts[index].action === 'unchanged'));
}
