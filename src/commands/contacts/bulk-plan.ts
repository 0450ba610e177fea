// `contacts update|delete --from` against the live workspace: their plan (plan.ts) for --dry-run
// (rendered by plan-render.ts), and, before a real update, the changes that look made by a
// spreadsheet, asked about first.
import type { WsmClient } from '../../api/client.js';
import { isScientificNotation } from '../../api/csv-cells.js';
import type { Context } from '../../cli/context.js';
import { countText } from '../../cli/text.js';
import type { BulkItem } from './bulk-input.js';
import { planDelete, planUpdate, type LiveContacts, type Plan, type PlanRow } from './plan.js';
import { readLiveContacts } from './plan-render.js';

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

/**
 * Before a real update: when the file holds values a spreadsheet may have changed, the plan finds
 * the changes that look so, and they are asked about (on a terminal; --yes otherwise).
 */
export async function confirmSpreadsheetChanges(ctx: Context, client: WsmClient, items: BulkItem[], concurrency: number): Promise<void> {
  const values = (item: BulkItem) => [item.body?.name, ...Object.values(item.body?.fields ?? {})];
  if (!items.some((item) => values(item).some((value) => typeof value === 'string' && maybeDamaged(value)))) return;
  const plan = await bulkPlan(ctx, client, 'update', items, concurrency);
  const flagged = plan.contacts.filter((contact) => contact.suspicious.length > 0);
  if (flagged.length === 0) return;
  for (const contact of flagged.slice(0, 10))
    for (const why of contact.suspicious) ctx.output.warn(`${contact.place}, contact ${contact.id}: ${why}`);
  if (flagged.length > 10) ctx.output.warn(`and ${countText(flagged.length - 10)} more contacts (--dry-run lists them all)`);
  const what = `${countText(flagged.length)} contact${flagged.length === 1 ? '' : 's'} with changes that look made by a spreadsheet`;
  await ctx.confirm(`Update ${what}?`, `updating ${what}`);
}
