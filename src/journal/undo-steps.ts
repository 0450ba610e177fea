// The requests of an undo, sent on the page engine (several in flight, paced by 429s), each ending
// in a report line; what they did is journaled as a change of its own, so an undo can be undone.
import type { WsmClient } from '../api/client.js';
import { descriptionOf } from '../api/descriptions/catalog.js';
import { runEach, type EngineRequest, type Settled } from '../api/page-engine.js';
import type { Contact, ContactCreateBody, ContactUpdateBody } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { itemFailure } from '../cli/error-report.js';
import type { UndoStep } from './inverse.js';
import { contactImage, type JournalRecord } from './records.js';
import { flushOnStop } from './flush-on-stop.js';
import { beginChange } from './journal.js';
import type { ResourceStep } from './resource-inverse.js';
import { resourceImage } from './resource-image.js';
import { RemadeGroups } from './remade-groups.js';
import { recordLabel } from './resource-plan.js';
import { stepRuns } from './undo-order.js';

export interface UndoReport {
  /** The record's id (one created again: its new id, null when the server gave none). */
  id: number | null;
  outcome: 'set back' | 'deleted' | 'created again' | 'failed';
  status: number | null;
  message: string;
}

const idOf = (step: UndoStep) => (step.op === 'create' ? step.was : step.op === 'resource' ? (step.was ?? step.id) : step.id);

function resourceRecordOf(step: ResourceStep, answer: unknown): JournalRecord {
  const image = step.does === 'delete' ? null : resourceImage((answer as { data?: unknown } | undefined)?.data);
  const after = typeof image === 'string' ? null : image;
  const id = step.does === 'create' ? (after !== null && Number.isInteger(after.id) ? Number(after.id) : null) : step.id;
  return {
    kind: 'resource',
    resource: step.resource,
    op: step.does,
    id,
    before: step.before,
    after,
    ...(step.implied ? { implied: true } : {}),
  };
}

function recordOf(step: UndoStep, answer: unknown): JournalRecord {
  if (step.op === 'resource') return resourceRecordOf(step, answer);
  const data = (answer as { data?: Contact } | undefined)?.data;
  const after = data === undefined ? null : contactImage(data);
  if (step.op === 'create') return { kind: 'contact', op: 'create', id: after?.id ?? null, number: step.body.number, before: null, after };
  return { kind: 'contact', op: step.op, id: step.id, before: contactImage(step.before), after: step.op === 'delete' ? null : after };
}

/** A resource step's request: the call of its description's operation. */
async function resourceCall(client: WsmClient, step: ResourceStep, request: EngineRequest): Promise<unknown> {
  const operations = (await descriptionOf(step.resource)).operations;
  const operation = step.resource === 'permissions' && step.does === 'update' ? operations.setPartnerDefaults : operations[step.does];
  return operation.client!(client, { id: step.id ?? '', query: {}, body: step.body, files: {}, options: { signal: request.signal } });
}

const OUTCOMES = { update: 'set back', delete: 'deleted', create: 'created again' } as const;

/** Sends the steps, run by run (undo-order.ts); returns their reports in step order. The undo is journaled as undoing `change`. */
export async function sendUndo(
  ctx: Context,
  client: WsmClient,
  change: string,
  steps: UndoStep[],
  concurrency: number,
): Promise<UndoReport[]> {
  const journal = await beginChange(ctx, { summary: `undo ${change}`, expected: steps.length, undoes: change });
  const remade = new RemadeGroups(steps);
  /** Per contact step, the groups made again that its request went without (their create failed). */
  const without = new Map<UndoStep, string[]>();
  const regrouped = <Body extends ContactCreateBody | ContactUpdateBody>(step: UndoStep, body: Body): Body => {
    const fitted = remade.body(body);
    if (fitted.left.length > 0) without.set(step, fitted.left);
    return fitted.body;
  };
  const call = (step: UndoStep, request: EngineRequest): Promise<unknown> =>
    step.op === 'resource'
      ? resourceCall(client, step, request)
      : step.op === 'update'
        ? client.contacts.update(step.id, regrouped(step, step.body), {}, request)
        : step.op === 'delete'
          ? client.contacts.delete(step.id, request)
          : client.contacts.create(regrouped(step, step.body), {}, { signal: request.signal });
  const done: JournalRecord[] = [];
  const failed: number[] = [];
  const settle = (step: UndoStep, result: Settled<unknown>): UndoReport => {
    if (!result.ok) {
      // A resource's failed request leaves no record to mark: failed ids name contacts, which undo looks up by them.
      if (step.op !== 'resource') failed.push(step.op === 'create' ? step.was : step.id);
      return { id: idOf(step), outcome: 'failed', ...itemFailure(result.error) };
    }
    const record = recordOf(step, result.value);
    done.push(record);
    remade.made(step, record.id);
    if (step.op === 'resource') {
      // The id alone reads as a contact's, as the other lines' ids are: the message names the kind.
      const named =
        step.was === undefined
          ? recordLabel({ resource: step.resource, id: record.id })
          : `was ${recordLabel({ resource: step.resource, id: step.was })}`;
      return { id: record.id, outcome: OUTCOMES[step.does], status: 200, message: named };
    }
    const left = (without.get(step) ?? []).map((name) => `without contact group ${JSON.stringify(name)}: it was not made again`);
    if (step.op === 'create')
      return { id: record.id, outcome: 'created again', status: 200, message: [`was contact ${step.was}`, ...left].join('; ') };
    return { id: step.id, outcome: step.op === 'update' ? 'set back' : 'deleted', status: 200, message: left.join('; ') };
  };
  const reports: UndoReport[] = [];
  const progress = ctx.io.progress('Undoing', steps.length);
  const stopListening = flushOnStop(() => journal?.add(done.splice(0)));
  try {
    for (const run of stepRuns(steps, concurrency)) {
      const before = reports.length;
      for await (const report of runEach(run.steps, call, settle, {
        concurrency: run.concurrency,
        describe: (step) =>
          step.op === 'resource' ? recordLabel({ resource: step.resource, id: idOf(step) ?? null }) : `contact ${idOf(step)}`,
        notice: client.notice,
        progress: (event) => progress.update(before + event.done),
      }))
        reports.push(report);
    }
  } finally {
    stopListening();
    progress.done();
    journal?.add(done.splice(0));
    journal?.finish({ contacts: failed });
  }
  return reports;
}
