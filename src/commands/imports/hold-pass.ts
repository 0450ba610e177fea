// The cells an import's plan holds, found exactly in one pass over the file before the upload,
// without planning every row: the upload then leaves them out and goes at once, and the rows are
// checked while the server works, as for a file that can hold nothing (upload.ts). Only the rows
// that can bear on a held cell are checked and planned here, by the planner itself
// (contacts/plan-import.ts): a row with a cell like damage (hold-scan.ts cellMayHold) in a column
// that can be held, every row naming a contact whose values, stored or set by such a row, look
// like damage (watched), every new number beside one with more leading zeros, stored or of the file
// (the scan's twins), and every new number written as a spreadsheet's decimal (`447911123458.00`). Any other row sets values that are nothing like damage, and whether a change
// is held depends on the value it writes over only through that likeness (contacts/plan.ts
// spreadsheetDamage), so leaving those rows out changes no decision. It can change what a held
// line shows (the value a row before it set, the rows naming the contact): where a held contact was
// named by such a row before (counted as the pass goes, for the numbers several rows name), the
// pass gives up (undefined) and the whole file is planned first. A row with values beyond the header's columns is a row here as in the
// check (checkedRow): planned on the header's columns where the server may take it, its values
// beyond sent as written.
// A CSV file is read from disk, its held rows rewritten as they are met when it is sent as its own
// bytes (held-bytes.ts); a file sent as the CSV of its rows (canonical-csv.ts) and an .xlsx sheet,
// whose rows are already in memory (sheet-upload.ts), go as a copy that leaves out what `held` names.
import { type CsvItem, hasCells, openCsv } from '../../api/import-csv.js';
import { planColumns, type ColumnPlan } from '../../api/import-columns.js';
import { normalizeNumber } from '../../api/schemas/index.js';
import { checkedRow, type FieldIds } from '../../cli/csv-check.js';
import type { ServerReading } from '../../cli/unreadable-cells.js';
import { inTurns } from '../../cli/loop-turns.js';
import { paddedStored, type LiveContacts } from '../contacts/plan.js';
import type { ImportPlanOptions } from '../contacts/plan-import.js';
import { readAlikeEverywhere } from './canonical-csv.js';
import { type RewrittenRecord, rewrittenRecord } from './held-cells.js';
import { cellMayHold } from './hold-scan.js';
import { damageable, spreadsheetDecimal } from '../contacts/spreadsheet-damage.js';
import { type HeldCells, importPlanning, type PlanSaid } from './import-plan.js';
import { PlanSaying } from './held-upload.js';

/** The rows the pass reads: a CSV file's, or a sheet's as read (header first, each named by its sheet row). */
export type HoldSource = { csv: string } | { items: readonly CsvItem[] };

/** The source's rows a batch at a time, and whether its held records are written anew (a CSV sent as its own bytes). */
export async function openRows(source: HoldSource): Promise<{
  batches: AsyncIterable<CsvItem[]> | Iterable<readonly CsvItem[]>;
  rewrite: boolean;
  close(): Promise<void>;
}> {
  if ('items' in source) return { batches: inTurns(source.items), rewrite: false, close: async () => {} };
  const file = await openCsv(source.csv);
  return { batches: file.batches, rewrite: readAlikeEverywhere(file.format), close: () => file.close() };
}

export interface HeldByPass {
  /** What the upload leaves out, by row: held cells (plan keys), or the whole row. */
  held: HeldCells;
  /** A CSV's records the upload carries without their held cells (or blank: rows left out whole), in file order: none when a copy is sent. */
  records: RewrittenRecord[];
  /** The held cells, to be said before the upload. */
  said: PlanSaid;
  /** The numbers of the rows left out whole: no contact of theirs is made, nor repeated. */
  skipped: Set<string>;
}

/** The numbers of stored contacts holding a value a row may hold a change to (anything like damage). */
function watchedOf(live: LiveContacts): Set<string> {
  const watched = new Set<string>();
  for (const [number, contact] of live.byNumber) {
    const values = [contact.name, contact.email, contact.gender, ...Object.values(contact.fields ?? {})];
    if (values.some((value) => typeof value === 'string' && (cellMayHold(value) || damageable(value)))) watched.add(number);
  }
  return watched;
}

/** The columns whose cells an import's plan may hold: name, e-mail, gender and the fields. */
const holdableColumns = (plan: ColumnPlan): number[] =>
  [plan.contact.name, plan.contact.email, plan.contact.gender, ...plan.fields.map((field) => field.index)].filter(
    (index) => index !== undefined,
  );

/**
 * The held cells of `source`'s rows (its header checked), against `live`, with the workspace's
 * `fields`, planned as the run plans (`options`: the file's twins, from hold-scan.ts; `reading`: as
 * the check takes it). `repeats`: how many rows name each number named more than once
 * (file-numbers.ts repeatCounts), so that each contact is settled at its last row and only what is
 * said of the held cells is kept (held-upload.ts PlanSaying), never every contact planned.
 */
export async function passForHolds(
  source: HoldSource,
  live: LiveContacts,
  fields: FieldIds | undefined,
  options: ImportPlanOptions,
  { repeats, reading }: { repeats: ReadonlyMap<string, number>; reading?: ServerReading | undefined },
): Promise<HeldByPass | undefined> {
  const { batches, rewrite } = await openRows(source);
  const planning = importPlanning(live, options);
  const twins = options.twins ?? new Map<string, string>();
  const watched = watchedOf(live);
  /** Rows naming a repeated number before the pass follows it (not planned, or invalid). */
  const unplanned = new Map<string, number>();
  /** The numbers followed after rows of theirs the pass did not plan: a held line would not show what those rows set. */
  const namedBefore = new Set<string>();
  let heldNamedBefore = false;
  const saying = new PlanSaying();
  planning.settleWith({
    repeats: { get: (number) => (repeats.has(number) ? repeats.get(number)! - (unplanned.get(number) ?? 0) : undefined) },
    settled(contact) {
      saying.add(contact);
      if (contact.held !== undefined && namedBefore.has(normalizeNumber(contact.number ?? ''))) heldNamedBefore = true;
    },
  });
  /** A row of `number` the pass did not plan before following it: counted where other rows name it too. */
  const passed = (number: string) => {
    if (repeats.has(number) && !watched.has(number)) unplanned.set(number, (unplanned.get(number) ?? 0) + 1);
  };
  const skipped = new Set<string>();
  const records: RewrittenRecord[] = [];
  const beside = (number: string, cell: string) =>
    !live.byNumber.has(number) &&
    (spreadsheetDecimal(cell) ||
      ((live.byUnpadded.size > 0 || twins.size > 0) && (twins.has(number) || paddedStored(live, number) !== undefined)));
  let header: string[] | undefined;
  let plan: ColumnPlan | undefined;
  let holdable: number[] = [];
  let numberAt = 0;
  for await (const batch of batches)
    for (const row of batch) {
      if (plan === undefined) {
        header = row.kind === 'record' ? row.cells : [];
        plan = planColumns(header, fields);
        holdable = holdableColumns(plan);
        numberAt = plan.contact.number ?? 0;
        continue;
      }
      if (!hasCells(row)) continue;
      const { cells } = row;
      const number = normalizeNumber(cells[numberAt] ?? '');
      if (!watched.has(number) && !beside(number, cells[numberAt] ?? '') && !holdable.some((index) => cellMayHold(cells[index] ?? ''))) {
        passed(number);
        continue;
      }
      const checked = await checkedRow(row, plan, reading);
      if (checked.value !== undefined && !watched.has(number) && unplanned.has(number)) namedBefore.add(number);
      planning.onRow(checked);
      if (checked.value === undefined) {
        passed(number);
        continue;
      }
      watched.add(number);
      const holding = planning.held.get(row.row);
      if (holding === undefined) continue;
      if (holding === 'row') skipped.add(number);
      if (rewrite) records.push(rewrittenRecord(row, header!, holding));
    }
  // The contacts whose last rows the pass did not plan (they were invalid) are settled here.
  planning.finish();
  if (heldNamedBefore) return undefined;
  return { held: planning.held, records, said: saying.said(options.unread), skipped };
}
