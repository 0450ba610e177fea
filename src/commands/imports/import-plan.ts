// An import's plan (contacts/plan-import.ts), made as the local check reads the rows (csv-check.ts
// onRow, whatever the file's format), against the workspace's contacts (read when at most
// WSM_IMPORT_READ_LIMIT, by a dry run and a run alike; past it those of the file's numbers, looked
// up: large-workspace.ts) and groups. A real run executes it: its held cells are left out of the upload.
import type { WsmClient } from '../../api/client.js';
import { AuthenticationError } from '../../api/errors.js';
import { nfc } from '../../api/schemas/common.js';
import type { Context } from '../../cli/context.js';
import { type CheckedRow, WHOLE_ROW } from '../../cli/csv-check.js';
import { rowName } from '../../cli/text.js';
import { concurrencyOf } from '../shared/concurrency.js';
import { liveContacts, type LiveContacts, type Plan, type PlanRow, type RowSets } from '../contacts/plan.js';
import type { ImportRow } from '../../api/schemas/index.js';
import type { ColumnPlan } from '../../api/import-columns.js';
import { type FinishedPlan, type ImportPlanOptions, ImportPlanner, type Settling } from '../contacts/plan-import.js';
import { RepeatedNumbers } from '../contacts/repeated-numbers.js';
import { cannotListContacts, readLiveContactsUpTo, readLiveContactsWithin } from '../contacts/plan-live.js';
import { askShown, askWsmRules, SHOWN_ALL, type Shown } from '../contacts/plan-unshown.js';
import type { ServerReading } from '../../cli/unreadable-cells.js';
import { liveMayHold } from './hold-scan.js';
import { spreadsheetDecimal } from '../contacts/spreadsheet-damage.js';
import type { ImportBefore } from '../../journal/import-change.js';
import { ImportTally } from './import-tally.js';
import { repeatedSaid } from './held-upload.js';
import { type FileReads, importLimits, largeWorkspace, workspaceOver } from './large-workspace.js';

/** The check's row as a plan reads it; `group`: the name of the import's --group, joined by every row. */
function importPlanRow(row: CheckedRow, group: string | undefined): PlanRow {
  const place = rowName(row);
  if (row.value === undefined) {
    const errors = Object.entries(row.errors ?? {}).flatMap(([field, messages]) =>
      messages.map((message) => (field === WHOLE_ROW ? message : `${field}: ${message}`)),
    );
    return { place, errors };
  }
  return {
    place,
    number: String(row.value.number),
    ...(row.written !== undefined && spreadsheetDecimal(row.written) ? { written: row.written } : {}),
    sets: importRowSets(row.value, group),
    ...(row.emptied !== undefined && row.emptied.length > 0 ? { emptied: row.emptied } : {}),
    ...(row.unreadable !== undefined ? { unreadable: row.unreadable } : {}),
  };
}

/** What a valid row of an import sets, as a plan applies it; `group`: the name of the import's --group, joined by every row. */
export function importRowSets(value: ImportRow, group: string | undefined): RowSets {
  const names = [...(value.contact_groups ?? []), ...(group !== undefined ? [group] : [])];
  return {
    ...(value.name !== undefined && value.name !== '' ? { name: value.name } : {}),
    ...(value.email !== undefined ? { email: value.email } : {}),
    ...(value.gender !== undefined ? { gender: value.gender } : {}),
    ...(value.status !== undefined ? { status: value.status } : {}),
    ...(value.fields !== undefined ? { fields: value.fields } : {}),
    ...(names.length > 0 ? { groups: { names, replace: false } } : {}),
  };
}

/** What the run leaves out of the upload, by sheet or file row: held cells (plan keys), or the whole row. */
export type HeldCells = Map<number, string[] | 'row'>;

export interface ImportPlanning {
  /** Each row of the file as the check reads it. */
  onRow(row: CheckedRow): void;
  /** After the whole file: the plan (its contacts those not handed on by Settling). */
  finish(): FinishedPlan;
  /** The numbers the rows name, as the server stores them. */
  numbers(): Iterable<string>;
  /** Each contact handed on once settled, from the first row on (Settling): the plan is not held whole. */
  settleWith(settling: Settling): void;
  /** What the run leaves out, filled as the rows are read. */
  held: HeldCells;
  /** The run's counts in the plan's categories, followed as the rows are read (none where the workspace was not read). */
  tally?: ImportTally;
}

/**
 * The import's --group and the workspace's group names, composed as the file's are read (NFC), so
 * that a name the file writes decomposed is the group it names (undefined where they cannot be listed).
 */
async function groupsOf(client: WsmClient, id: number | undefined): Promise<{ names?: Set<string>; group?: string }> {
  const names = new Set<string>();
  let group: string | undefined;
  try {
    for await (const each of client.groups.list()) {
      names.add(nfc(each.name));
      if (Number(each.id) === id) group = each.name;
    }
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
    return id === undefined ? {} : { group: `group ${id}` };
  }
  return { names, ...(id !== undefined ? { group: group ?? `group ${id}` } : {}) };
}

/**
 * Plans the rows as they are read, against `live`; `group`: the name of the import's --group, joined
 * by every row; `tally`: the run's counts, followed too; `settling`: each contact handed on once
 * settled; `sendsNothing`: a dry run, which keeps no record of what an upload would leave out.
 */
export function importPlanning(
  live: LiveContacts,
  options: ImportPlanOptions,
  { group, tally, settling, sendsNothing }: { group?: string; tally?: ImportTally; settling?: Settling; sendsNothing?: boolean } = {},
): ImportPlanning {
  const planner = new ImportPlanner(live, options, settling);
  const held: HeldCells = new Map();
  return {
    held,
    ...(tally !== undefined ? { tally } : {}),
    onRow(row) {
      const outcome = planner.add(importPlanRow(row, group));
      if (sendsNothing) return;
      if (outcome.skipped) held.set(row.row, 'row');
      else if (outcome.held.length > 0) held.set(row.row, outcome.held);
      if (tally === undefined || row.value === undefined) return;
      if (outcome.skipped) tally.leftOut();
      else tally.sent(String(row.value.number), row, row.value);
    },
    finish: () => planner.finish(),
    numbers: () => planner.numbers(),
    settleWith: (settling) => planner.settleWith(settling),
  };
}

/** What a dry run plans against: the workspace's contacts (in a large one, those of the file's numbers), its group names, the name of the import's --group, and what its contacts show. */
export interface DryRunWorkspace {
  live: LiveContacts;
  /** Where the workspace was too large to read and not every number could be looked up: planned as the run plans then. */
  unread?: Pick<ImportPlanOptions, 'unread' | 'absent' | 'unreadWhy'>;
  groups: { names?: Set<string>; group?: string };
  /** Asked once, when a row first needs it (the check, or a plan of rows sending groups or fields). */
  shown: () => Promise<Shown>;
}

/**
 * The workspace a dry run plans against, read before the rows are checked (the check asks what its
 * contacts show). A dry run needs no server: when the contacts cannot be read, it says why and
 * gives the check alone (undefined); a token the server refuses fails it as it fails every command.
 */
async function dryRunWorkspace(
  ctx: Context,
  client: WsmClient,
  group: number | undefined,
  file: FileReads,
): Promise<DryRunWorkspace | undefined> {
  // Read before any request, as the run reads them: a refused one stops the dry run (exit 2).
  const limits = importLimits(ctx);
  try {
    // The list walked and left past the limit: a small workspace costs its pages, no request for its total first.
    const whole = await readLiveContactsUpTo(ctx, client, concurrencyOf(ctx, {}), limits.limit);
    const large = whole === undefined ? await largeWorkspace(ctx, client, limits, file.numbers, (await file.scan()).twins) : undefined;
    const live = whole ?? large!.live;
    const unread = large?.unread === undefined ? undefined : { unread: true, absent: large.absent, unreadWhy: large.unread };
    return { live, ...(unread !== undefined ? { unread } : {}), groups: await groupsOf(client, group), shown: askShown(client, live) };
  } catch (error) {
    if (error instanceof AuthenticationError) throw error;
    ctx.output.warn(`no plan: the workspace's contacts could not be read (${(error as Error).message}); the rows' check alone follows`);
    return undefined;
  }
}

/**
 * A dry run's planning, fed the rows as the check reads them, against the workspace read before,
 * each contact handed on once settled (a million rows' plan is never held at once). `columns`: the
 * file's header, which decides whether a row may send groups or fields the server's contacts do
 * not show (then asked before the first row).
 */
export async function dryRunPlanning(
  workspace: DryRunWorkspace,
  columns: ColumnPlan,
  { applyFlagged, group }: { applyFlagged: boolean; group?: number },
  twins: ReadonlyMap<string, string>,
  settling: Settling,
): Promise<ImportPlanning> {
  const { live, groups } = workspace;
  const sendsUnshown = group !== undefined || columns.contact.contact_groups !== undefined || columns.fields.length > 0;
  const shown = sendsUnshown ? await workspace.shown() : SHOWN_ALL;
  const options = { applyFlagged, twins, shown, ...workspace.unread, ...(groups.names !== undefined ? { groups: groups.names } : {}) };
  return importPlanning(live, options, { ...(groups.group !== undefined ? { group: groups.group } : {}), settling, sendsNothing: true });
}

/**
 * What a plan says before the upload, or after it when it holds nothing: the rows naming one
 * contact, and what it holds. `unread`: the workspace was not read, so a contact without an id may
 * be stored already and is named by its number, not called new. `counts`: where `contacts` are the
 * first of them only (held-upload.ts PlanSaying), how many there are.
 */
export type PlanSaid = Pick<Plan, 'contacts' | 'held'> & { unread?: boolean; counts?: { repeated: number; heldOnNew: number } };

/** The plan of a run that holds nothing, made after the upload: only the rows naming one contact are left to say. */
export interface PlanAfterUpload {
  onNumber(number: string, place: { row: number; line: number }, value: ImportRow): void;
  finish(): PlanSaid;
  numbers(): Iterable<string>;
}

/** A real run's planning, and whether the scan (hold-scan.ts) found that it cannot hold anything. */
export interface RunPlanning extends ImportPlanning {
  holdsNothing: boolean;
  /** What the plan was made with: the scan's twins, whether the workspace was read (hold-pass.ts plans the same way). */
  options: ImportPlanOptions;
  /** The workspace as read before the upload (the journal's before-images), or why it was not. */
  before: ImportBefore;
  /** The contacts the plan is made against (none where they were not read). */
  live: LiveContacts;
  /** What the server's contacts show, asked once when the check first needs it: from those contacts, or its first where they were not read. */
  shown: () => Promise<Shown>;
  /**
   * When it holds nothing, or its held cells were found without it (hold-pass.ts): the rows naming
   * one contact, followed as the rows are checked after the upload; `skipped`: the numbers of rows left out whole.
   */
  afterUpload(skipped?: ReadonlySet<string>): PlanAfterUpload;
}

/**
 * A real run's planning: the workspace's contacts when there are few enough, otherwise the rows
 * among themselves (said). What it holds needs no group names: they are not read. `scan`: the
 * quick read of the file (hold-scan.ts), made while the contacts are read.
 */
export async function runPlanning(
  ctx: Context,
  client: WsmClient,
  { applyFlagged, group }: { applyFlagged: boolean; group?: number },
  file: FileReads,
): Promise<RunPlanning> {
  const scanned = file.scan();
  // Settled even when the read fails first, so that no rejection goes unseen.
  scanned.catch(() => {});
  const read = await readLiveWithin(ctx, client);
  const { mayHold, twins } = await scanned;
  const large = 'tooLarge' in read ? await largeWorkspace(ctx, client, read, file.numbers, twins) : undefined;
  // Every number of the file looked up is as good as the workspace read: the journal takes those contacts too.
  const before: ImportBefore = large !== undefined && large.unread === undefined ? { live: large.live, absent: large.absent } : read;
  const live = 'live' in before ? before.live : (large?.live ?? liveContacts([]));
  const options: ImportPlanOptions = {
    applyFlagged,
    twins,
    ...('live' in before ? {} : { unread: true, absent: large?.absent ?? new Set() }),
  };
  // The counts need the workspace's contacts: new and stored told apart.
  const tally = 'live' in before ? new ImportTally(live, applyFlagged, group) : undefined;
  return {
    ...importPlanning(live, options, tally !== undefined ? { tally } : {}),
    before,
    live,
    shown: askShown(client, 'live' in before ? live : undefined),
    options,
    holdsNothing: !mayHold && !liveMayHold(live),
    afterUpload(skipped = new Set()) {
      const repeated = new RepeatedNumbers(live, tally?.named);
      return {
        onNumber(number, place, value) {
          if (skipped.size > 0 && skipped.has(number)) tally?.leftOut();
          else if (tally !== undefined) tally.sent(number, place, value);
          else repeated.add(number, place);
        },
        finish: () => repeatedSaid(repeated, options.unread),
        numbers: () => repeated.numbers(),
      };
    },
  };
}

/**
 * What an import reads before its rows are checked: a dry run's workspace (none without a server
 * or where it cannot be read), and what the check asks of the server (unreadable-cells.ts): what
 * its contacts show, from the contacts the dry run or the run's planning read, else (a run that
 * plans nothing) from its first contact; whether its rules are wsm serve's.
 */
export async function beforeCheck(
  ctx: Context,
  client: WsmClient | undefined,
  { dryRun, group }: { dryRun: boolean; group?: number },
  planning: RunPlanning | undefined,
  file: FileReads,
): Promise<{ workspace?: DryRunWorkspace; reading?: ServerReading }> {
  if (!dryRun) return { reading: { shown: planning?.shown ?? askShown(client!), wsmRules: askWsmRules(client!) } };
  const workspace = client === undefined ? undefined : await dryRunWorkspace(ctx, client, group, file);
  return workspace === undefined ? {} : { workspace, reading: { shown: workspace.shown, wsmRules: askWsmRules(client!) } };
}

/** The workspace read before an import, or why not; `limit`: where it holds too many contacts, how many it may hold. */
type LiveRead = Exclude<ImportBefore, { tooLarge: string }> | { tooLarge: string; lookups: number; limit: number };

async function readLiveWithin(ctx: Context, client: WsmClient): Promise<LiveRead> {
  const { limit, lookups } = importLimits(ctx);
  try {
    const live = await readLiveContactsWithin(ctx, client, concurrencyOf(ctx, {}), limit);
    if (live !== undefined) return { live };
    return { tooLarge: `${workspaceOver(limit)}, too many to read before an import`, lookups, limit };
  } catch (error) {
    // Importing may be allowed where listing contacts is not: the import goes on, checked by the file alone.
    if (!cannotListContacts(error)) throw error;
    const why = `the workspace's contacts could not be read (${(error as Error).message})`;
    ctx.output.notice(`${why}: the rows were checked for scientific notation only`);
    return { unread: why };
  }
}
