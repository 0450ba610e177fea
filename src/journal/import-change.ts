// The journal's side of an import (`contacts import`, `imports create`). The before-images are the
// contacts the import's plan read before the file was sent (no read of its own), taken for the
// numbers the file's rows name. Once --wait has seen the import finish, the workspace is listed
// once more to find what it made: a number that had no contact and has one now is a contact the
// import created (undone by deleting it), one that had a contact is an update (undone by setting
// its values back); only the contacts holding the file's numbers are kept, last pages first
// (import-after.ts). Without --wait the outcome is not known: the contacts it updated are kept with
// their before-images; the ones it created are not known, and the journal says so. A workspace too
// large to read whole is not read: the file's numbers are looked up one by one (import-lookup.ts).
import type { WsmClient } from '../api/client.js';
import type { Context } from '../cli/context.js';
import { cannotListContacts, LIVE_READ_LIMIT } from '../commands/contacts/plan-live.js';
import type { LiveContacts } from '../commands/contacts/plan.js';
import { JOURNAL_READ_LIMIT } from './bulk-change.js';
import { beginChange } from './journal.js';
import { countOf, countText } from '../cli/text.js';
import { contactImage, type JournalRecord } from './records.js';
import type { ChangeWriter } from './store.js';
import type { UploadResult } from '../commands/imports/upload.js';
import { beforeByNumber, createdByNumber, type ReadRows } from './import-lookup.js';
import { contactsHoldingNumbers, type FoundByNumber } from './import-after.js';

/**
 * What the import's plan read of the workspace before sending, or why it read nothing;
 * `tooLarge`: too many contacts to read whole (why), so up to `lookups` of the file's numbers are looked up.
 */
export type ImportBefore = { live: LiveContacts } | { unread: string } | { tooLarge: string; lookups: number };

/** The before-images; `absent` where the numbers were looked up: those with no contact before (the only ones looked up after). */
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
 */
export async function beginImportChange(
  ctx: Context,
  file: string,
  bytes: number,
  { client, planned, unplanned }: { client: WsmClient; planned: Planned | undefined; unplanned: ReadRows | undefined },
): Promise<ImportChange | undefined> {
  const change = await beginChange(ctx, { summary: `import ${file}`, expected: Math.ceil(bytes / SHORTEST_ROW) });
  if (change === undefined) return undefined;
  const read = planned?.before ?? { unread: '--apply-flagged sends the file as it is, without reading the workspace' };
  let before: Before | string;
  if ('live' in read) before = { live: read.live };
  else if ('unread' in read) before = read.unread;
  else {
    const found = await beforeByNumber(ctx, client, unplanned ?? planned!.numbers(), read.lookups, (sentence) => change.note(sentence));
    before = typeof found === 'string' ? `${read.tooLarge}, and ${found}` : found;
  }
  if (typeof before === 'string') change.note(`no before-image was taken: ${before}; undo leaves the import's contacts as they are`);
  return new ImportChange(ctx, change, typeof before === 'string' ? undefined : before);
}

export class ImportChange {
  constructor(
    private readonly ctx: Context,
    private readonly change: ChangeWriter,
    private readonly before: Before | undefined,
  ) {}

  /**
   * Records what the import did to the contacts `numbers` names (as the server stores them): once
   * --wait saw it finish, the workspace is listed to find what it created; otherwise (no --wait, a
   * wait stopped: `result` undefined) its outcome is not known.
   */
  async end(client: WsmClient, numbers: () => Iterable<string>, result: UploadResult | undefined): Promise<void> {
    try {
      if (this.before === undefined) return;
      const after =
        result === undefined
          ? 'the import was interrupted or its wait failed'
          : result.finished !== true
            ? 'run without --wait: `wsm imports get ID --wait` reads it'
            : this.before.absent === undefined
              ? await this.readAfter(client, new Set(numbers()))
              : await this.lookUpAfter(client, this.before.absent, result);
      if (typeof after === 'string')
        this.change.note(
          `the import's outcome was not read (${after}): the contacts it updated are kept as they were before it; those it created are not known, and undo leaves them`,
        );
      const records = this.records(numbers, this.before.live, typeof after === 'string' ? undefined : after);
      this.noteMadeMeanwhile(records, result?.import?.created_count);
      this.change.add(records);
    } catch (error) {
      this.change.note(`the import's outcome was not read (${(error as Error).message}): undo leaves its contacts as they are`);
    } finally {
      this.change.finish([]);
    }
  }

  private records(numbers: () => Iterable<string>, before: LiveContacts, after: FoundByNumber | undefined): JournalRecord[] {
    const records: JournalRecord[] = [];
    for (const number of numbers()) {
      const was = before.byNumber.get(number);
      const now = after?.get(number);
      if (was !== undefined)
        records.push({
          kind: 'contact',
          op: 'update',
          id: Number(was.id),
          before: contactImage(was),
          after: now === undefined ? null : contactImage(now),
        });
      else if (now !== undefined)
        records.push({ kind: 'contact', op: 'create', id: Number(now.id), number, before: null, after: contactImage(now) });
    }
    return records;
  }

  /**
   * A contact someone else made while the import ran, with a number of the file that had none
   * before, cannot be told from one the import made: said when the import's own count of the
   * contacts it created is lower than the creates recorded.
   */
  private noteMadeMeanwhile(records: JournalRecord[], created: unknown): void {
    const creates = records.filter((record) => record.kind === 'contact' && record.op === 'create').length;
    if (typeof created !== 'number' || creates <= created) return;
    this.change.note(
      `the import says it created ${countOf(created, 'contact')}, and ${countText(creates)} of the file's numbers that had none before have one now: ${countText(creates - created)} of those contacts ${creates - created === 1 ? 'was' : 'were'} made by someone else while it ran (which cannot be told); undo deletes them too, unless changed since`,
    );
  }

  /** The contacts holding the numbers that had none before, found by search; a string says why they were not. */
  private async lookUpAfter(client: WsmClient, absent: Set<string>, result: UploadResult): Promise<FoundByNumber | string> {
    const counts = { updated: this.before?.live.byNumber.size ?? 0, created: result.import?.created_count };
    try {
      return (await createdByNumber(this.ctx, client, absent, counts, (sentence) => this.change.note(sentence))).byNumber;
    } catch (error) {
      if (!cannotListContacts(error)) throw error;
      return `the workspace's contacts could not be searched after it: ${(error as Error).message}`;
    }
  }

  /** The contacts holding the file's numbers after the import (import-after.ts); a string says why they were not read. */
  private async readAfter(client: WsmClient, named: Set<string>): Promise<FoundByNumber | string> {
    try {
      const limit = Math.min(JOURNAL_READ_LIMIT, LIVE_READ_LIMIT + named.size);
      const found = await contactsHoldingNumbers(this.ctx, client, named, limit);
      return found ?? `the workspace holds over ${countText(limit)} contacts after it, too many to read for the journal`;
    } catch (error) {
      if (!cannotListContacts(error)) throw error;
      return `the workspace's contacts could not be read after it: ${(error as Error).message}`;
    }
  }
}
