// Carrying out a plan: one change at a time in dependency order, each reported as it ends. A
// failed change does not stop the others (none of the sections refers to another), except when
// no further request can succeed (the server is unreachable, the token is refused).
import { APIConnectionError, APIStatusError, AuthenticationError, UnprocessableEntityError } from '../../api/errors.js';
import type { WorkspaceSection } from '../../api/schemas/index.js';
import { exitCodeFor } from '../../cli/errors.js';
import { MadeInPart } from './made-in-part.js';
import { isUnsupported } from './observe.js';
import { executionOrder, type Change } from './plan.js';
import type { Prepared } from './prepare.js';
import { specOf, type Entry } from './sections.js';

type OutcomeStatus = 'created' | 'updated' | 'replaced' | 'deleted' | 'failed' | 'not attempted';

export interface Outcome {
  change: Change;
  status: OutcomeStatus;
  /** The id the change produced (create, replace). */
  id?: number;
  /** Why it failed, as one sentence. */
  error?: string;
  exitCode?: number;
  /** It failed because the server lacks the operation: running again cannot help. */
  unsupported?: boolean;
  /** The record as the server answered the create or update (the change journal's after-image). */
  record?: unknown;
  /** A replacement that failed after its delete was made: the old record is gone. */
  deletedFirst?: true;
  /** A create that failed after the record was made (its `id` and `record` say what exists). */
  createdFirst?: true;
}

/** What one change made: the id and record of what it created or updated, as the server answered. */
interface Made {
  id?: number;
  record?: unknown;
}

/** One sentence for a failed request, with the server's field errors. */
function describeFailure(error: unknown): string {
  if (error instanceof APIStatusError) {
    const fields =
      error instanceof UnprocessableEntityError
        ? Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`)
        : [];
    return `${error.message} (${error.status})${fields.length ? ` ${fields.join('; ')}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A replacement whose delete was made and whose create failed. */
class ReplaceHalfDone extends Error {}

/** Failures after which every further request would fail the same way. */
function stopsEverything(error: unknown): boolean {
  return error instanceof APIConnectionError || error instanceof AuthenticationError;
}

const DONE: Record<Exclude<Change['action'], 'blocked'>, OutcomeStatus> = {
  create: 'created',
  update: 'updated',
  replace: 'replaced',
  delete: 'deleted',
};

async function carryOut(prepared: Prepared, change: Change): Promise<Made> {
  const { client, loaded, state, observed } = prepared;
  const section: WorkspaceSection = change.section;
  const spec = specOf(section);
  // Sections the server cannot list are known only through the ids kept in the state file.
  const tracked = observed.observation[section]?.complete === false ? state : undefined;
  const create = async () => {
    try {
      const { id, record } = await spec.create(client, change.entry as Entry<WorkspaceSection>, loaded.dir);
      await tracked?.record(section, change.key, id);
      return { id, record };
    } catch (error) {
      if (error instanceof MadeInPart) await tracked?.record(section, change.key, error.id);
      throw error;
    }
  };
  const remove = async () => {
    await spec.delete(client, change.id!);
    await tracked?.forget(section, change.key);
  };
  switch (change.action) {
    case 'create':
      return create();
    case 'update':
      return { record: await spec.update(client, change.id!, change.entry as Entry<WorkspaceSection>) };
    case 'delete':
      await remove();
      return {};
    case 'replace':
      await remove();
      try {
        return await create();
      } catch (error) {
        throw new ReplaceHalfDone(`deleted, but creating it again failed: ${describeFailure(error)}`, { cause: error });
      }
    case 'blocked':
      throw new Error('cannot be done in place');
  }
}

/** Runs every change of the plan; `report` sees each outcome as it is known. */
export async function execute(prepared: Prepared, report: (outcome: Outcome) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let stopped = false;
  for (const change of executionOrder(prepared.plan)) {
    let outcome: Outcome;
    if (stopped) outcome = { change, status: 'not attempted' };
    else {
      try {
        const { id, record } = await carryOut(prepared, change);
        outcome = {
          change,
          status: DONE[change.action as keyof typeof DONE],
          ...(id !== undefined ? { id } : {}),
          ...(record !== undefined ? { record } : {}),
        };
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        let message = error instanceof MadeInPart ? `${error.message}: ${describeFailure(cause)}` : describeFailure(error);
        if (change.unseen && error instanceof UnprocessableEntityError && prepared.state) {
          message += ` (if it exists already, record its id as "${change.key}" under ${change.section} in ${prepared.state.path})`;
        }
        outcome = {
          change,
          status: 'failed',
          error: message,
          exitCode: exitCodeFor(cause),
          ...(isUnsupported(cause) ? { unsupported: true } : {}),
          ...(error instanceof ReplaceHalfDone ? { deletedFirst: true } : {}),
          ...(error instanceof MadeInPart ? { id: error.id, record: error.record, createdFirst: true } : {}),
        };
        stopped = stopsEverything(cause);
      }
    }
    outcomes.push(outcome);
    report(outcome);
  }
  return outcomes;
}
