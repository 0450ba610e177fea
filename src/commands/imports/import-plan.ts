// An import's plan (contacts/plan.ts): the local check's rows (csv-check.ts onRow, whatever the
// file's format) against the live workspace's contacts, read through the page engine. A row
// updates the contact with its number or creates one; the check's invalid rows are its invalid.
import type { WsmClient } from '../../api/client.js';
import { AuthenticationError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { type CheckedRow, WHOLE_ROW } from '../../cli/csv-check.js';
import { rowName } from '../../cli/text.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { planImport, type Plan, type PlanRow } from '../contacts/plan.js';
import { readLiveContacts } from '../contacts/plan-render.js';

/** The check's row as a plan reads it; `group`: the name of the import's --group, joined by every row. */
export function importPlanRow(row: CheckedRow, group: string | undefined): PlanRow {
  const place = rowName(row);
  if (row.value === undefined) {
    const errors = Object.entries(row.errors ?? {}).flatMap(([field, messages]) =>
      messages.map((message) => (field === WHOLE_ROW ? message : `${field}: ${message}`)),
    );
    return { place, errors };
  }
  const value = row.value;
  const names = [...(value.contact_groups ?? []), ...(group !== undefined ? [group] : [])];
  return {
    place,
    number: String(value.number),
    sets: {
      ...(value.name !== undefined && value.name !== '' ? { name: value.name } : {}),
      ...(value.email !== undefined ? { email: value.email } : {}),
      ...(value.gender !== undefined ? { gender: value.gender } : {}),
      ...(value.status !== undefined ? { status: value.status } : {}),
      ...(value.fields !== undefined ? { fields: value.fields } : {}),
      ...(names.length > 0 ? { groups: { names, replace: false } } : {}),
    },
  };
}

/**
 * The plan of the rows against the workspace `client` reaches. A dry run needs no server: when
 * the contacts cannot be read, it says why and gives the check alone; a token the server refuses
 * fails it as it fails every command.
 */
export async function importPlan(ctx: Context, client: WsmClient, rows: PlanRow[]): Promise<Plan | undefined> {
  try {
    return planImport(rows, await readLiveContacts(ctx, client, concurrencyOf(ctx, {})));
  } catch (error) {
    if (error instanceof AuthenticationError) throw error;
    ctx.output.warn(`no plan: the workspace's contacts could not be read (${(error as Error).message}); the rows' check alone follows`);
    return undefined;
  }
}

/** The name of the import's --group, for the plan to show (its id when the workspace has no such group listed). */
export async function groupNameOf(client: WsmClient, id: number): Promise<string> {
  for await (const group of client.groups.list()) if (Number(group.id) === id) return group.name;
  return `group ${id}`;
}
