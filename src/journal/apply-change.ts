// The journal's side of `wsm apply`: one change per apply, begun once the apply is agreed to and
// before its first request. A record per resource it created, updated, replaced (its delete, then
// its create) or deleted, written as each ends and in the order they were made (an undo goes back
// through them newest first: the reverse of the dependency order); the before-image is the record
// the plan's read of the workspace already holds (no request of its own), the after-image the
// record the server answered. What failed or was not attempted is named in the change's notes.
import type { WorkspaceSection } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import type { Outcome } from '../commands/workspace-file/execute.js';
import type { Prepared } from '../commands/workspace-file/prepare.js';
import { beginChange } from './journal.js';
import type { FailedIds, RecordOp, ResourceRecord } from './records.js';
import { resourceImage, type ResourceImage } from './resource-image.js';
import type { ChangeWriter } from './store.js';

/** How the change is summed up: the file as given (stdin has no name). */
function applySummary(path: string): string {
  return path === '-' ? 'apply (the workspace file read from stdin)' : `apply ${path}`;
}

/** Begins the change of an apply about to be made; undefined with WSM_HISTORY=off. */
export async function beginApplyChange(ctx: Context, prepared: Prepared): Promise<ApplyChange | undefined> {
  const { changes } = prepared.plan;
  const expected = changes.length + changes.filter((change) => change.action === 'replace').length;
  const change = await beginChange(ctx, { summary: applySummary(prepared.loaded.path), expected });
  return change === undefined ? undefined : new ApplyChange(change, prepared);
}

type Image = { image: ResourceImage | null; unknown?: string };

export class ApplyChange {
  /** The ids whose request failed, by section: no record is kept of them. */
  private readonly failed: FailedIds = {};

  constructor(
    private readonly change: ChangeWriter,
    private readonly prepared: Prepared,
  ) {}

  /** Keeps what one change of the plan did, as soon as it is known. */
  record(outcome: Outcome): void {
    const { change, status } = outcome;
    const name = `${change.section} ${change.key}`;
    const records: ResourceRecord[] = [];
    if (status === 'created') records.push(this.made(outcome, 'create'));
    else if (status === 'updated') records.push(this.made(outcome, 'update'));
    else if (status === 'deleted') records.push(this.deleted(outcome));
    else if (status === 'replaced') records.push(this.deleted(outcome), this.made(outcome, 'create'));
    else if (status === 'failed') {
      // A replacement whose create failed has deleted the old record all the same.
      if (outcome.deletedFirst) records.push(this.deleted(outcome));
      // A create whose follow-up failed has made its record all the same: undo may delete it.
      else if (outcome.createdFirst) records.push(this.made(outcome, 'create'));
      else if (change.id !== undefined) (this.failed[change.section] ??= []).push(change.id);
      this.change.note(`${name}: its ${change.action} failed (${outcome.error ?? 'no reason given'})`);
    } else this.change.note(`${name}: its ${change.action} was not attempted`);
    this.change.add(records);
    for (const record of records) if (record.unknown !== undefined) this.change.note(record.unknown);
  }

  end(): void {
    this.change.finish(this.failed);
  }

  /** A record the server answered for a create or an update (before it: the plan's read). */
  private made(outcome: Outcome, op: Extract<RecordOp, 'create' | 'update'>): ResourceRecord {
    const { change } = outcome;
    const id = op === 'create' ? (outcome.id ?? null) : (change.id ?? null);
    const before = op === 'update' ? this.before(outcome) : { image: null };
    const after = imageOf(outcome.record, `${change.section} ${change.key}: the server's answer`);
    return this.resourceRecord(change.section, op, id, before, after);
  }

  private deleted(outcome: Outcome): ResourceRecord {
    const { change } = outcome;
    return this.resourceRecord(change.section, 'delete', change.id ?? null, this.before(outcome), { image: null });
  }

  /** The record the plan read before the change: found among the section's observed items by id. */
  private before({ change }: Outcome): Image {
    const found = this.prepared.observed.observation[change.section]?.items.find((item) => item.id === change.id);
    return imageOf(found?.record, `${change.section} ${change.key}: the record read before the change`);
  }

  private resourceRecord(resource: WorkspaceSection, op: RecordOp, id: number | null, before: Image, after: Image): ResourceRecord {
    const unknown = [before.unknown, after.unknown].filter((why) => why !== undefined);
    return {
      kind: 'resource',
      resource,
      op,
      id,
      before: before.image,
      after: after.image,
      ...(unknown.length > 0 ? { unknown: unknown.join('; ') } : {}),
    };
  }
}

/** The image of a record, or none and why (`what` names the record in the sentence). */
function imageOf(record: unknown, what: string): Image {
  if (record === undefined) return { image: null, unknown: `${what} held no record` };
  const image = resourceImage(record);
  return typeof image === 'string' ? { image: null, unknown: `${what}: ${image}` } : { image };
}
