// Before a real import: the changes a row would make that look made by a spreadsheet (leading
// zeros dropped, a value in scientific notation, a new number beside a contact equal to it but for
// its leading zeros: plan.ts flags them) are asked about on a terminal, and need --yes otherwise,
// as `contacts update --from` asks. Knowing them before the upload takes the whole file checked
// first and the workspace's contacts read; the read is bounded (LIVE_READ_LIMIT), since past it the
// read would cost more than the import. A larger workspace is checked for what the file alone shows
// (scientific notation), and the notice says so. --yes skips all of it: the file is sent at once.
import { basename } from 'node:path';
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import type { CheckedRow } from '../../cli/csv-check.js';
import { countText } from '../../cli/text.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { liveContacts, plannedImport, type LiveContacts, type PlannedContact } from '../contacts/plan.js';
import { askAboutFlagged, cannotListContacts, FLAGGED_NAMED, LIVE_READ_LIMIT, readLiveContactsWithin } from '../contacts/plan-render.js';
import { importPlanRow } from './import-plan.js';

export interface SpreadsheetWatch {
  /** Each row of the file as the check reads it (csv-check.ts onRow). */
  onRow(row: CheckedRow): void;
  /** After the whole file: each flagged change said, then the question (exit 2 without a terminal or --yes). */
  confirm(): Promise<void>;
}

/** The workspace's contacts to compare with, or none (said) when there are too many or they cannot be read. */
async function workspaceToCompare(ctx: Context, client: WsmClient): Promise<LiveContacts> {
  const none = liveContacts([]);
  try {
    const live = await readLiveContactsWithin(ctx, client, concurrencyOf(ctx, {}), LIVE_READ_LIMIT);
    if (live !== undefined) return live;
    ctx.output.notice(
      `the workspace holds over ${countText(LIVE_READ_LIMIT)} contacts: the rows were checked for scientific notation only, not against them (--dry-run compares every row with the workspace)`,
    );
  } catch (error) {
    // Importing may be allowed where listing contacts is not: the import goes on, checked by the file alone.
    if (!cannotListContacts(error)) throw error;
    ctx.output.notice(
      `the workspace's contacts could not be read (${(error as Error).message}): the rows were checked for scientific notation only`,
    );
  }
  return none;
}

/** Reads the workspace (bounded) and watches the file's rows for changes that look made by a spreadsheet. */
export async function watchSpreadsheetChanges(ctx: Context, client: WsmClient, file: string): Promise<SpreadsheetWatch> {
  const live = await workspaceToCompare(ctx, client);
  const named: PlannedContact[] = [];
  let flagged = 0;
  return {
    onRow(row) {
      const planned = plannedImport(importPlanRow(row, undefined), live);
      if (planned.suspicious.length === 0) return;
      flagged += 1;
      if (named.length < FLAGGED_NAMED) named.push(planned);
    },
    async confirm() {
      const who = (contact: PlannedContact) =>
        `${file} ${contact.place}, ${contact.id === null ? `new contact ${contact.number}` : `contact ${contact.id}`}`;
      await askAboutFlagged(ctx, named, flagged, who, (what) => [`Import ${basename(file)} with ${what}?`, `importing ${what}`]);
    },
  };
}
