// The journal's side of `contacts update|delete --from`: each contact's before-image is the one
// the run's read of the workspace found (no request of its own per contact); where the run read
// none (a delete, a workspace too large for the rows given), the journal reads the list once, up
// to JOURNAL_READ_LIMIT contacts, else says at the time which contacts have no before-image; the
// ids that read finds missing are kept (`absent`), so a delete does not send them. The
// records are appended as the outcomes come, in batches, so a run stopped half-way keeps what it did.
import type { WsmClient } from '../api/client.js';
import { UpdatedInPartError } from '../api/errors.js';
import { PER_PAGE_MAX } from '../api/schemas/common.js';
import type { Contact } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { countOf } from '../cli/text.js';
import type { BulkExecution, BulkStep } from '../commands/contacts/bulk-execute.js';
import { cannotListContacts, readContactsOneByOne, readLiveContactsWithin } from '../commands/contacts/plan-live.js';
import { SHOWN_ALL, type Shown, shownByContact } from '../commands/contacts/plan-unshown.js';
import { flushOnStop } from './flush-on-stop.js';
import { beginChange } from './journal.js';
import { contactImage, type JournalRecord } from './records.js';
import type { ChangeWriter } from './store.js';

type Outcome = BulkExecution['outcomes'] extends AsyncIterable<infer T> ? T : never;

/** The most contacts the journal reads for before-images the run did not read. */
const JOURNAL_READ_LIMIT = 100_000;
/** What an update may send that a server's contacts need not show (the published API's show neither). */
const UNSHOWABLE = ['contact_groups', 'fields'] as const satisfies ReadonlyArray<keyof Shown>;
/** Records written at once: few writes, and little lost to a crash. */
const BATCH = 1000;

/** The before-images the journal read itself, and the ids its read found not in the workspace. */
interface JournalRead {
  before: Map<number, Contact>;
  absent: Set<number>;
}

/**
 * The contacts the run did not read: the list, when its pages cost no more requests than the
 * rows' own; otherwise each contact read by itself (the GET-one extension). A string says why none.
 */
async function missingImages(ctx: Context, client: WsmClient, steps: BulkStep[], concurrency: number): Promise<JournalRead | string> {
  const ids = steps.map((step) => step.id);
  try {
    const limit = Math.min(JOURNAL_READ_LIMIT, steps.length * PER_PAGE_MAX);
    const live = await readLiveContactsWithin(ctx, client, concurrency, limit);
    if (live !== undefined) return { before: live.byId, absent: new Set(ids.filter((id) => !live.byId.has(id))) };
  } catch (error) {
    if (!cannotListContacts(error)) throw error;
  }
  const read = await readContactsOneByOne(client, ids, concurrency);
  return read !== undefined
    ? { before: read.live.byId, absent: read.absent }
    : 'the server cannot read one contact and the workspace is too large to list';
}

/** Begins the change of a bulk run; undefined with WSM_HISTORY=off. */
export async function beginBulkChange(
  ctx: Context,
  client: WsmClient,
  summary: string,
  steps: BulkStep[],
  concurrency: number,
): Promise<BulkChange | undefined> {
  const sent = steps.filter((step) => step.action.kind === 'update' || step.action.kind === 'delete');
  const change = await beginChange(ctx, { summary, expected: sent.length });
  if (change === undefined) return undefined;
  const before = new Map<number, Contact>();
  for (const step of sent) if (step.before !== undefined) before.set(step.id, step.before);
  const unread = sent.filter((step) => !before.has(step.id));
  let absent = new Set<number>();
  if (unread.length > 0) {
    const read = await missingImages(ctx, client, unread, concurrency);
    if (typeof read === 'string') change.note(`${unread.length} contacts have no before-image: ${read}; undo leaves them`);
    else {
      for (const [id, contact] of read.before) before.set(id, contact);
      absent = read.absent;
    }
  }
  return new BulkChange(change, before, absent);
}

export class BulkChange {
  private readonly pending: JournalRecord[] = [];
  private readonly failed: number[] = [];
  private readonly gone: number[] = [];
  /** Values sent that the server's answer does not show (`contact_groups`, `fields`), and to how many contacts. */
  private readonly unshown = new Map<string, number>();

  constructor(
    private readonly change: ChangeWriter,
    private readonly before: Map<number, Contact>,
    /** The contacts the journal's own read found not in the workspace: a delete need not send them. */
    readonly absent: ReadonlySet<number>,
  ) {}

  /** The run's execution, each outcome recorded as it is read. */
  follow(execution: BulkExecution): BulkExecution {
    const change = this;
    async function* recorded(): AsyncGenerator<Outcome> {
      const stopListening = flushOnStop(() => change.flush());
      try {
        for await (const outcome of execution.outcomes) {
          change.record(outcome);
          yield outcome;
        }
      } finally {
        stopListening();
        change.end();
      }
    }
    return { ...execution, outcomes: recorded() };
  }

  private record({ step, sent, result, report }: Outcome): void {
    // A contact failed unsent (not in the workspace) is listed failed, as one whose request failed.
    if (step.action.kind === 'absent' && report.outcome === 'failed') this.failed.push(step.id);
    // Sent or not, a delete of a contact not in the workspace deleted nothing: only its id says what the run said.
    if (report.outcome === 'already gone') this.gone.push(step.id);
    if (step.action.kind === 'unsent' || step.action.kind === 'absent' || result === undefined || report.outcome === 'already gone') return;
    // An update whose clears failed after its form changed the contact: recorded as the form left it, so undo sets it back.
    const inPart = !result.ok && result.error instanceof UpdatedInPartError ? result.error.update : undefined;
    if (!result.ok && inPart === undefined) {
      this.failed.push(step.id);
      return;
    }
    if (inPart !== undefined) this.change.note(`contact ${step.id} was updated in part (its clear failed): recorded as the form left it`);
    const before = this.before.get(step.id);
    const answer = result.ok ? (result.value as { data?: Contact } | undefined)?.data : (inPart?.contact as Contact | undefined);
    const op = step.action.kind;
    // Neither image holds such a value: undo cannot set it back, and the change says so.
    const shown = op === 'update' && answer !== undefined ? shownByContact(answer) : SHOWN_ALL;
    for (const key of UNSHOWABLE) if (sent?.[key] !== undefined && !shown[key]) this.unshown.set(key, (this.unshown.get(key) ?? 0) + 1);
    this.pending.push({
      kind: 'contact',
      op,
      id: step.id,
      before: before === undefined ? null : contactImage(before),
      after: op === 'delete' || answer === undefined ? null : contactImage(answer),
      ...(before === undefined ? { unknown: `contact ${step.id}: no before-image` } : {}),
    });
    if (this.pending.length >= BATCH) this.flush();
  }

  private flush(): void {
    this.change.add(this.pending.splice(0));
  }

  private end(): void {
    this.flush();
    for (const [key, count] of this.unshown)
      this.change.note(
        `${key} of ${countOf(count, 'contact')} sent uncompared (this server's contacts do not show it): undo cannot set it back`,
      );
    this.change.finish({ contacts: this.failed }, this.gone);
  }
}
