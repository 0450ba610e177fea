// The journal's side of an import (`contacts import`, `imports create`). The before-images are the
// contacts the import's plan read before the file was sent (no read of its own), taken for the
// numbers the file's rows name. Once --wait has seen the import finish, each contact is recorded
// with the values its rows leave it with, predicted from the rows sent (import-outcome.ts), not
// read back: a number that had no contact is a create, one that had one an update, and the rows
// the server says failed leave their contacts out. `wsm undo` finds them by number and flags any
// whose values differ from the prediction (undo-reach.ts, inverse.ts). Without --wait the outcome
// is not known: the contacts it updated are kept with their before-images; the ones it created are
// not known, and the journal says so. A workspace too large to read whole is not read: the file's
// numbers are looked up one by one (import-lookup.ts).
import type { WsmClient } from '../api/client.js';
import type { Context } from '../cli/context.js';
import type { LiveContacts } from '../commands/contacts/plan.js';
import { beginChange } from './journal.js';
import { MAX_RECORDS } from './journal-files.js';
import { countOf, countText } from '../cli/text.js';
import { contactImage, createdLine, type JournalRecord } from './records.js';
import type { ChangeWriter } from './store.js';
import type { UploadResult } from '../commands/imports/upload.js';
import { importErrorOf } from '../commands/imports/import-errors.js';
import { beforeByNumber, type ReadRows } from './import-lookup.js';
import type { ImportOutcome } from './import-outcome.js';
import { BATCH_BYTES, LineBatches } from './line-batches.js';
import { withGroup } from './row-values.js';
import { ImportGroups } from './import-groups.js';

/**
 * What the import's plan read of the workspace before sending (`absent`: where it looked up the
 * file's numbers, those no contact held), or why it read nothing;
 * `tooLarge`: too many contacts to read whole (why), so up to `lookups` of the file's numbers are looked up.
 */
export type ImportBefore = { live: LiveContacts; absent?: Set<string> } | { unread: string } | { tooLarge: string; lookups: number };

/** The before-images; `absent` where the numbers were looked up: those found with no contact (the only ones the import may create). */
type Before = { live: LiveContacts; absent?: Set<string> };

/** The run's planning as the journal reads it: the plan's read, and the numbers its rows named. */
interface Planned {
  before: ImportBefore;
  numbers(): Iterable<string>;
}

/** A row is seldom shorter: the file's size bounds its rows, and so the change's records. */
const SHORTEST_ROW = 24;

/**
 * Begins the change of an import, before it is sent (`planned`: the plan's read; none where the
 * run planned nothing: --apply-flagged sends the file as it is); undefined with WSM_HISTORY=off.
 * `unplanned`: where the rows are checked only after the upload, how to read their numbers first.
 * `groupsSent`: the file has a contact_groups column and the import is waited for, so the groups
 * it makes can be known (import-groups.ts).
 */
export async function beginImportChange(
  ctx: Context,
  file: string,
  bytes: number,
  {
    client,
    planned,
    unplanned,
    groupsSent,
  }: { client: WsmClient; planned: Planned | undefined; unplanned: ReadRows | undefined; groupsSent: boolean },
): Promise<ImportChange | undefined> {
  const change = await beginChange(ctx, { summary: `import ${file}`, expected: Math.ceil(bytes / SHORTEST_ROW) });
  if (change === undefined) return undefined;
  const read = planned?.before ?? { unread: '--apply-flagged sends the file as it is, without reading the workspace' };
  let before: Before | string;
  if ('live' in read) before = { live: read.live, ...(read.absent !== undefined ? { absent: read.absent } : {}) };
  else if ('unread' in read) before = read.unread;
  else {
    const found = await beforeByNumber(ctx, client, unplanned ?? planned!.numbers(), read.lookups, (sentence) => change.note(sentence));
    before = typeof found === 'string' ? `${read.tooLarge}, and ${found}` : found;
  }
  if (typeof before === 'string') change.note(`no before-image was taken: ${before}; undo leaves the import's contacts as they are`);
  const groups = groupsSent && typeof before !== 'string' ? await ImportGroups.before(client) : undefined;
  if (typeof groups === 'string') change.note(`${groups}: a contact group the import makes is not kept, and undo leaves it`);
  return new ImportChange(change, typeof before === 'string' ? undefined : before, typeof groups === 'string' ? undefined : groups);
}

export class ImportChange {
  constructor(
    private readonly change: ChangeWriter,
    private readonly before: Before | undefined,
    private readonly groups?: ImportGroups,
  ) {}

  /**
   * Records what the import did to the contacts its rows name (`outcome`: the rows as sent): once
   * --wait saw it finish, as its rows predict; otherwise (no --wait, a wait stopped: `result`
   * undefined) its outcome is not known.
   */
  async end(outcome: ImportOutcome | undefined, result: UploadResult | undefined): Promise<void> {
    try {
      if (this.before === undefined || outcome === undefined) return;
      const unread =
        result === undefined
          ? 'the import was interrupted or its wait failed'
          : result.finished !== true
            ? 'run without --wait: `wsm imports get ID --wait` reads it'
            : undefined;
      if (unread !== undefined) {
        this.change.note(
          `the import's outcome was not read (${unread}): the contacts it updated are kept as they were before it; those it created are not known, and undo leaves them`,
        );
        this.change.add(this.updatesBefore(outcome, this.before.live));
        return;
      }
      // The groups first: undo goes newest first, so it deletes them once it has undone the contacts.
      this.change.add(await this.groupsMade(outcome));
      this.noteMadeMeanwhile(this.record(outcome, this.before, result!), result!.import?.created_count);
    } catch (error) {
      this.change.note(`the import's outcome was not recorded (${(error as Error).message}): undo leaves its contacts as they are`);
    } finally {
      this.change.finish({});
    }
  }

  /** The contact groups the import made (import-groups.ts), where the groups were read before it. */
  private async groupsMade(outcome: ImportOutcome): Promise<JournalRecord[]> {
    const made = (await this.groups?.made(outcome.groupNames)) ?? [];
    if (typeof made !== 'string') return made;
    this.change.note(`${made}: a contact group the import made is not kept, and undo leaves it`);
    return [];
  }

  /** The contacts the rows name that had one before, with their before-images alone. */
  private updatesBefore(outcome: ImportOutcome, live: LiveContacts): JournalRecord[] {
    const records: JournalRecord[] = [];
    for (const number of outcome.allNumbers()) {
      const was = live.byNumber.get(number);
      if (was !== undefined) records.push({ kind: 'contact', op: 'update', id: Number(was.id), before: contactImage(was), after: null });
    }
    return records;
  }

  /**
   * Each contact the rows name, with its before-image and the values the rows leave it with; a
   * number looked up and left unknown is not recorded (said at the time), nor is a contact named
   * by a row the server says failed. Past the most records a change keeps, the others are only
   * counted (the store says that undo leaves them). Written as JSON lines in batches, a new
   * contact's values mostly as its row was written when checked (import-outcome.ts). Returns how
   * many contacts the rows create.
   */
  private record(outcome: ImportOutcome, before: Before, result: UploadResult): number {
    const record = result.import;
    const errors = (Array.isArray(record?.errors) ? record.errors : []).map(importErrorOf);
    const refused = outcome.refused(errors);
    const group = record?.contact_group?.name;
    const lines = new LineBatches(this.change);
    // The records of contacts created as their rows were written, one after the other: one view.
    let run = { from: 0, to: 0, count: 0 };
    const endRun = () => {
      if (run.count > 0) lines.push(outcome.bytes(run.from, run.to), run.count);
      run = { from: 0, to: 0, count: 0 };
    };
    const { byNumber } = before.live;
    // Where the workspace held none of the numbers (a read of no contacts), none is made into text to look up.
    const noneStored = byNumber.size === 0 && before.absent === undefined;
    let kept = 0;
    let more = false;
    let creates = 0;
    for (const entry of outcome.contacts()) {
      if (refused.size > 0 && refused.has(outcome.keyOf(entry))) continue;
      const number = noneStored ? undefined : outcome.numberOf(entry);
      const was = number === undefined ? undefined : byNumber.get(number);
      const create = was === undefined && (number === undefined || before.absent === undefined || before.absent.has(number));
      if (create) creates += 1;
      if (was === undefined && !create) continue;
      if (kept === MAX_RECORDS) {
        more = true;
        continue;
      }
      kept += 1;
      if (was === undefined && group === undefined && outcome.createdAsWritten(entry)) {
        const [start, end] = outcome.spanOf(entry);
        if (run.count > 0 && (start !== run.to || run.to - run.from >= BATCH_BYTES)) endRun();
        if (run.count === 0) run.from = start;
        run.to = end;
        run.count += 1;
        continue;
      }
      endRun();
      if (was !== undefined) {
        const predicted = outcome.after(entry, was, group);
        const update: JournalRecord = {
          kind: 'contact',
          op: 'update',
          id: Number(was.id),
          before: contactImage(was),
          after: null,
          predicted,
        };
        lines.pushLine(`${JSON.stringify(update)}\n`);
      } else if (outcome.createdAsWritten(entry)) lines.pushLine(withGroup(outcome.textOf(entry), group!));
      else {
        const made = outcome.after(entry, undefined, group);
        lines.pushLine(
          createdLine(outcome.numberOf(entry), made.name, made.email, made.gender, made.status, made.fields, made.contact_groups),
        );
      }
    }
    endRun();
    lines.end(more);
    if (refused.size > 0)
      this.change.note(
        `the server says rows naming ${countOf(refused.size, 'contact')} failed: ${refused.size === 1 ? 'it is' : 'they are'} kept as not changed, and undo leaves ${refused.size === 1 ? 'it' : 'them'} as ${refused.size === 1 ? 'it is' : 'they are'}`,
      );
    return creates;
  }

  /**
   * A contact someone else made while the import ran, with a number of the file that had none
   * before, is updated by the import, not made: said when the import's own count of the contacts
   * it created is lower than the creates its rows predict.
   */
  private noteMadeMeanwhile(creates: number, created: unknown): void {
    if (typeof created !== 'number' || creates <= created) return;
    this.change.note(
      `the import says it created ${countOf(created, 'contact')}, and its rows name ${countText(creates)} numbers that had no contact before: ${countText(creates - created)} of those contacts ${creates - created === 1 ? 'was' : 'were'} made by someone else while it ran (which cannot be told); undo deletes them too, unless their values differ from what the file's rows set`,
    );
  }
}
