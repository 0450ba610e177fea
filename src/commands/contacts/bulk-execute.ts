// The execution step of `contacts update|delete --from`: the plan's steps carried out, one request
// a contact on the page engine (several in flight, paced by 429s), and an outcome for each as it
// ends, in step order. This is the one place where a request of a bulk run is made and its
// outcome known: the contact's id, the contact as the run's read of the workspace found it, the
// body sent and the server's answer (or the error). Run starts it; render prints its reports.
import type { WsmClient } from '../../api/client.js';
import { NotFoundError } from '../../api/errors.js';
import { itemFailure } from '../../cli/error-report.js';
import { runEach, type EngineRequest, type Settled } from '../../api/page-engine.js';
import type { Contact, ContactUpdateBody } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';
import type { Progress } from '../../cli/progress.js';
import { unkeptFields } from './body.js';
import type { PendingUpdate } from './bulk-input.js';
import type { NameReader } from './bulk-names.js';

type Outcome = 'deleted' | 'already gone' | 'updated' | 'unchanged' | 'skipped' | 'failed';

/** Why a contact was not sent. */
const UNSENT_WHY = {
  unchanged: 'not sent: the row changes nothing',
  skipped: 'not sent: every change looks made by a spreadsheet and was kept as stored (--apply-flagged sends it)',
};

/** One contact's line of a run's report. */
export interface BulkReport {
  /** A number, as in the records (`contacts get -o json`). */
  id: number;
  outcome: Outcome;
  status: number | null;
  message: string;
}

export const reportColumns: Column<BulkReport>[] = [
  { key: 'id', header: 'ID' },
  { key: 'outcome', header: 'OUTCOME' },
  { key: 'status', header: 'STATUS' },
  { key: 'message', header: 'MESSAGE' },
];

/** What the plan leaves to do for one contact. */
export type BulkAction =
  | { kind: 'delete' }
  /** The update as planned (held changes taken out); without a name, the contact's own is sent (names). */
  | { kind: 'update'; body: PendingUpdate }
  | { kind: 'unsent'; why: keyof typeof UNSENT_WHY }
  /**
   * The run's read of the workspace found no such contact (the list read whole, or the contact
   * answered 404): not sent, since its answer is known. An update's counts failed, a delete's already gone.
   */
  | { kind: 'absent'; outcome: 'failed' | 'already gone' };

export interface BulkStep {
  id: number;
  /**
   * The contact as the run's one read of the workspace found it: undefined where the run read
   * none (a delete, a workspace too large to read for the rows given, a token that may not list
   * contacts) or the workspace has no such contact.
   */
  before?: Contact;
  action: BulkAction;
}

/** One step carried out: what was sent, what came back, and its report line. */
interface BulkOutcome {
  step: BulkStep;
  /** The update's body as sent, its name filled in; undefined for a delete and for a contact not sent. */
  sent?: ContactUpdateBody;
  /** The server's answer or the error; undefined for a contact not sent. */
  result?: Settled<unknown>;
  report: BulkReport;
}

/** What the outcomes leave behind, counted as they are read. */
interface BulkTally {
  succeeded: number;
  gone: number;
  /** Contacts of an update that change nothing: not sent. */
  unchanged: number;
  /** Contacts of an update whose every change looks made by a spreadsheet: not sent. */
  skipped: number;
  failures: Array<{ report: BulkReport; error: unknown }>;
  /** Custom fields an update sent that the server's answer does not hold (a server without the extension). */
  unkeptFields: Set<string>;
}

/** A run under way: its outcomes in step order (read once), and the tally they leave. */
export interface BulkExecution {
  outcomes: AsyncIterable<BulkOutcome>;
  tally: BulkTally;
}

export interface ExecuteOptions {
  concurrency: number;
  /** Where an update without a name finds the contact's own: the run's read of the workspace, or the server asked per contact. */
  names?: NameReader;
  /** Drawn as contacts end; done when the last one has. */
  progress: Progress;
}

function messageOf(body: unknown): string {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
    ? (body as { message: string }).message
    : '';
}

function reportOf(step: BulkStep, result: Settled<unknown>): BulkReport {
  const id = step.id;
  if (result.ok)
    return { id, outcome: step.action.kind === 'delete' ? 'deleted' : 'updated', status: 200, message: messageOf(result.value) };
  const error = result.error;
  if (step.action.kind === 'delete' && error instanceof NotFoundError)
    return { id, outcome: 'already gone', status: error.status, message: error.message };
  return { id, outcome: 'failed', ...itemFailure(error) };
}

/**
 * Starts the steps' requests and returns their outcomes as they end (in step order, at most a few
 * windows ahead of the reader). The first requests are made before this returns.
 */
export function executeBulk(client: WsmClient, steps: BulkStep[], options: ExecuteOptions): BulkExecution {
  const { names, progress } = options;
  const sent = new Map<BulkStep, ContactUpdateBody>();
  const call = async (step: BulkStep, request: EngineRequest): Promise<unknown> => {
    const { action } = step;
    if (action.kind === 'unsent' || action.kind === 'absent') return undefined;
    if (action.kind === 'delete') return client.contacts.delete(step.id, request);
    const name = action.body.name ?? (await names!.nameOf(String(step.id), request));
    const body = { ...action.body, name } as ContactUpdateBody;
    sent.set(step, body);
    return client.contacts.update(step.id, body, {}, request);
  };
  const settle = (step: BulkStep, result: Settled<unknown>): BulkOutcome => {
    if (step.action.kind === 'unsent') {
      const { why } = step.action;
      return { step, report: { id: step.id, outcome: why, status: null, message: UNSENT_WHY[why] } };
    }
    if (step.action.kind === 'absent') {
      const message = `contact ${step.id} not found, not sent`;
      return { step, report: { id: step.id, outcome: step.action.outcome, status: null, message } };
    }
    const body = sent.get(step);
    sent.delete(step);
    return { step, ...(body !== undefined ? { sent: body } : {}), result, report: reportOf(step, result) };
  };
  const tally: BulkTally = { succeeded: 0, gone: 0, unchanged: 0, skipped: 0, failures: [], unkeptFields: new Set() };
  async function* outcomes(): AsyncGenerator<BulkOutcome> {
    try {
      const settled = runEach(steps, call, settle, {
        concurrency: options.concurrency,
        describe: (step) => `contact ${step.id}`,
        notice: client.notice,
        progress: (event) => progress.update(event.done),
      });
      for await (const outcome of settled) {
        const { report } = outcome;
        if (report.outcome === 'unchanged') tally.unchanged += 1;
        else if (report.outcome === 'skipped') tally.skipped += 1;
        else if (report.outcome === 'failed')
          tally.failures.push({ report, error: outcome.result?.ok === false ? outcome.result.error : undefined });
        else tally.succeeded += 1;
        if (outcome.sent?.fields !== undefined && outcome.result?.ok)
          for (const name of unkeptFields(outcome.sent.fields, (outcome.result.value as { data?: Contact } | undefined)?.data))
            tally.unkeptFields.add(name);
        if (report.outcome === 'already gone') tally.gone += 1;
        yield outcome;
      }
    } finally {
      progress.done();
    }
  }
  return { outcomes: started(outcomes()), tally };
}

/**
 * The generator asked for its first item now, so its requests begin here and not when the
 * reader first asks; the reader is handed that first item, then the rest as the generator goes.
 */
function started<T>(generator: AsyncGenerator<T>): AsyncIterable<T> {
  const first = generator.next();
  // Read by whoever iterates; marked handled so a run nobody reads leaves no unhandled rejection.
  first.catch(() => undefined);
  let taken = false;
  const iterator: AsyncIterator<T> = {
    next: () => {
      if (taken) return generator.next();
      taken = true;
      return first;
    },
    return: async (value?: unknown) => generator.return(value as T),
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
