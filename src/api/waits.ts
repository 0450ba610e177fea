// The waits of the client, on the one poll loop (poll.ts): an import until the server has
// processed it, the tracked templates until the provider decided them. Each works on the published API's
// operations alone (the import list where one import cannot be read; template sync and GET).
// Which failures are retried meanwhile is the transport's (a `retry` policy on the wait's
// requests); what the user is told is the CLI's.
import { NotFoundError, UnusableResponseError, WsmApiError } from './errors.js';
import { poll, type PollOptions } from './poll.js';
import type { CallOptions } from './resources/base.js';
import type { ImportsResource } from './resources/imports.js';
import type { TemplateSyncResult, TemplatesResource } from './resources/templates.js';
import type { ContactImport, Template } from './schemas/index.js';

export interface WaitOptions {
  intervalMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** An import the server listed before and no longer does (deleted during the wait). */
class ImportGoneError extends WsmApiError {
  override name = 'ImportGoneError';
  constructor(readonly id: number | string) {
    super(`import ${id} is no longer listed by the server (deleted?): it was uploaded once; \`wsm imports list\` shows the imports it has`);
  }
}

// The published API does not show how an import progresses: these are the words servers use for "done".
export const FAILED_IMPORT = new Set(['failed', 'error', 'errored']);
const FINISHED_IMPORT = new Set(['completed', 'complete', 'finished', 'done', 'succeeded', 'success', 'processed', ...FAILED_IMPORT]);

/** An import's status in lower case, when it has one. */
export function importStatus(record: ContactImport): string | undefined {
  const status = record.status as unknown;
  return typeof status === 'string' ? status.toLowerCase() : undefined;
}

/**
 * Polls import `id` (starting from `known`, the record in hand) until it is finished; `onRecord`
 * sees every record read (progress). A record without a status cannot be waited on: unusable.
 */
export async function waitUntilDone(
  imports: ImportsResource,
  id: number | string,
  known: ContactImport,
  options: WaitOptions & Pick<CallOptions, 'retry'> & { onRecord?: (record: ContactImport) => void },
): Promise<{ record: ContactImport; settled: boolean }> {
  const read = async () => {
    const found = await imports.find(id, { signal: options.signal, retry: options.retry });
    if (found === undefined) throw new ImportGoneError(id);
    return found;
  };
  const finished = (record: ContactImport) => {
    const status = importStatus(record);
    if (status === undefined) {
      throw new UnusableResponseError(
        `the server's record of import ${id} has no \`status\` field, so wsm cannot tell when it is finished: it was uploaded once, do not upload it again`,
      );
    }
    options.onRecord?.(record);
    return FINISHED_IMPORT.has(status);
  };
  const { value, settled } = await poll(read, finished, { ...pollOptions(options), quickFirst: true }, { value: known });
  return { record: value, settled };
}

/** A tracked template as last read: its record, or undefined once it is gone (404). */
export interface TrackedTemplate {
  id: string;
  template?: Template;
}

export interface TemplateDecision {
  /** The last sync's answer. */
  result: TemplateSyncResult;
  /** The tracked templates as last read (none read when the first sync found nothing pending). */
  templates?: TrackedTemplate[];
  settled: boolean;
}

/** The tracked templates, read one by one with the published API's GET; a 404 is a template gone. */
export async function readTracked(templates: TemplatesResource, ids: string[], options: CallOptions = {}): Promise<TrackedTemplate[]> {
  const states: TrackedTemplate[] = [];
  for (const id of ids) {
    try {
      states.push({ id, template: (await templates.get(id, options)).data });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      states.push({ id });
    }
  }
  return states;
}

/**
 * Syncs until nothing is PENDING, or every tracked template is decided, or the deadline: the
 * last sync's answer, the tracked templates as last read, whether it settled. `onRead` sees
 * each reading (progress, templates gone).
 */
export async function waitUntilDecided(
  templates: TemplatesResource,
  ids: string[],
  options: WaitOptions & Pick<CallOptions, 'retry'> & { onRead?: (states: TrackedTemplate[]) => void },
): Promise<TemplateDecision> {
  const call: CallOptions = { signal: options.signal, retry: options.retry };
  const round = async (): Promise<TemplateDecision> => {
    const result = await templates.sync(call);
    if (result.nothing_pending || ids.length === 0) return { result, settled: result.nothing_pending };
    const states = await readTracked(templates, ids, call);
    options.onRead?.(states);
    return { result, templates: states, settled: states.every((s) => s.template === undefined || s.template.status !== 'PENDING') };
  };
  const { value, settled } = await poll(round, (decision) => decision.settled, pollOptions(options));
  return { ...value, settled };
}

function pollOptions(options: WaitOptions): PollOptions {
  return { intervalMs: options.intervalMs, deadline: Date.now() + options.timeoutMs, signal: options.signal };
}
