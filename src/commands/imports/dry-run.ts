// An import's dry run: the file's rows checked and planned while render takes the plan's contacts,
// each as soon as its plan is final (contacts/plan-import.ts, Settling), so that a file at the
// upload limit costs the CLI its counts and the contacts whose last rows are still to come, never
// its whole plan. How many rows name each number is read first (file-numbers.ts); the check waits
// while render has contacts left to write (cli/channel.ts), so a slow pipe holds the reading back.
import { Channel } from '../../cli/channel.js';
import type { CheckOptions, CsvReport } from '../../cli/csv-check.js';
import { withRowNotes } from '../contacts/bulk-sheet.js';
import type { PlannedContact } from '../contacts/plan.js';
import type { Settling } from '../contacts/plan-import.js';
import type { PlanTotals } from '../contacts/plan-tally.js';
import type { ImportPlanning } from './import-plan.js';
import { RepeatedRows } from './repeated-refusal.js';

/** What a dry run found once the whole file was read: the check's report, and the plan's counts (none without a plan). */
interface DryRunDone {
  report: CsvReport;
  plan?: PlanTotals;
}

export interface DryRun {
  /** Whether there is a plan (the workspace was read): without one, `contacts` gives none. */
  planned: boolean;
  /** The plan's contacts, each once its last row was read, in that order: taking them reads the file. Taken once. */
  contacts: AsyncIterable<PlannedContact>;
  /** Once the contacts were taken (or, when they were not, after reading the file for them): the report and the counts. */
  finish(): Promise<DryRunDone>;
  /** The contacts several rows name, as --strict refuses them (once the file was read). */
  repeated: RepeatedRows;
}

export interface DryRunParts {
  /** The rows' check, given the planning's onRow, the pace and a signal that stops it. */
  check(options: CheckOptions): Promise<CsvReport>;
  /** The planning, given where each settled contact goes and how many rows name each number; none where the workspace was not read. */
  planning?: (settling: Settling) => Promise<ImportPlanning>;
  /** How many rows name each number named more than once. */
  repeats(): Promise<Map<string, number>>;
  /** What follows the check: its rejects written, its columns' warnings said. */
  after(report: CsvReport): Promise<void>;
  /** A sheet's notes on its rows' cells, under each row's contact. */
  rowNotes?: ReadonlyMap<number, string[]>;
}

export async function startDryRun(parts: DryRunParts): Promise<DryRun> {
  const channel = new Channel<PlannedContact>();
  const repeated = new RepeatedRows();
  const settled = (contact: PlannedContact) => {
    const noted = withRowNotes(contact, parts.rowNotes);
    repeated.add(noted);
    channel.push(noted);
  };
  const planning = parts.planning === undefined ? undefined : await parts.planning({ repeats: await parts.repeats(), settled });
  const stop = new AbortController();
  let reading: Promise<DryRunDone> | undefined;
  const read = () =>
    (reading ??= (async () => {
      try {
        const report = await parts.check({
          ...(planning !== undefined ? { onRow: planning.onRow } : {}),
          pace: () => channel.room(),
          signal: stop.signal,
        });
        // The contacts whose last rows never came (they were invalid) are handed on here.
        const plan = planning?.finish();
        channel.end();
        if (plan === undefined) return { report };
        const { contacts: _left, ...totals } = plan;
        return { report, plan: totals };
      } catch (error) {
        channel.end({ error });
        throw error;
      }
    })());
  let taken = false;
  let finished: Promise<DryRunDone> | undefined;
  return {
    planned: planning !== undefined,
    repeated,
    contacts: {
      async *[Symbol.asyncIterator]() {
        taken = true;
        // Its failure reaches the taker through the channel.
        read().catch(() => {});
        let all = false;
        try {
          yield* channel;
          all = true;
        } finally {
          // A render that stopped taking (its output failed) stops the reading too.
          if (!all) stop.abort();
        }
      },
    },
    finish: () =>
      (finished ??= (async () => {
        const whole = read();
        if (!taken) {
          whole.catch(() => {});
          for await (const _contact of channel);
        }
        const done = await whole;
        await parts.after(done.report);
        return done;
      })()),
  };
}
