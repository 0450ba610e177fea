// `wsm templates sync [--wait] [--timeout 30m] [--interval 5s] [--fail-on-rejected]
//                     [--template <id>]... [--templates-from <file|->]`
//
// Works on the published API's operations alone. A plain sync is one POST; a 404 there means nothing is
// PENDING (the published API: not a fault), which is success. --wait repeats the sync until the server says
// so (or until every tracked template is decided); no template list is needed. The tracked
// templates are those named with --template / --templates-from, or, where the server lists
// templates (an extension), those PENDING before the sync; each is read with GET /templates/{id}.
// --fail-on-rejected exits 7 naming each tracked template that ended REJECTED. The wait is the
// client's templates.waitUntilDecided; during it the transport retries transient failures (5xx,
// 429, no connection) with backoff until the timeout (each request's `retry`), so only a failure at
// the timeout exits 6, naming its cause.
import type { WsmClient } from '../../api/client.js';
import { UnsupportedEndpointError } from '../../api/errors.js';
import type { TemplateSyncResult } from '../../api/resources/templates.js';
import { readTracked, type TrackedTemplate } from '../../api/waits.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, RejectedTemplatesError, UsageError, WaitTimedOutError } from '../../cli/errors.js';
import { untilInterrupted } from '../../cli/interrupt.js';
import { type Heartbeat, statusCounts, waitHeartbeat } from '../../cli/heartbeat.js';
import { countOf } from '../../cli/text.js';
import { waitRetries } from '../../cli/wait-retries.js';
import type { RetryPolicy } from '../../api/transport.js';
import { waitTimeoutMs } from '../../cli/timeout.js';
import { shellWord } from '../../cli/suggest.js';
import type { Column } from '../../cli/columns.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import { parseDuration, parseId, readTextInput, workspaceClient } from '../shared/verb.js';
import type { SYNC_FLAGS } from '../templates.js';

type SyncFlags = FlagOptions<typeof SYNC_FLAGS>;

export interface SyncOptions {
  wait: boolean;
  failOnRejected: boolean;
  timeoutMs: number;
  intervalMs: number;
  /** The templates named (--template, --templates-from), once each; none: those PENDING before the sync. */
  tracked: string[];
  /** The flags as given: the command that resumes an interrupted wait says them again. */
  flags: SyncFlags;
}

/** A sync's outcome: the sync's own answer, or the tracked templates' rows (and those deleted meanwhile). */
export type SyncResult = { answer: TemplateSyncResult } | { rows: Outcome[]; deleted: string[] };

interface Outcome {
  id: number | string;
  name: string;
  language: string;
  status: string;
  rejection_reason: string | null;
}

const outcomeColumns: Column<Outcome>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'language', header: 'LANGUAGE' },
  { key: 'status', header: 'STATUS' },
  { key: 'rejection_reason', header: 'REASON' },
];

const NOTHING_PENDING = 'No template is PENDING: nothing to sync.';

/** Template ids from --template (repeatable) and --templates-from (one a line, as `templates create -q` prints them). */
async function trackedIds(ctx: Context, opts: SyncFlags): Promise<string[]> {
  const given = opts.template ?? [];
  const from = opts.templatesFrom;
  const lines =
    from === undefined
      ? []
      : (await readTextInput(ctx, from))
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('#'));
  // An empty file is no request to fall back on the pending list: a create step upstream failed.
  if (from !== undefined && lines.length === 0)
    throw new UsageError(
      `${from === '-' ? 'standard input' : from} names no templates: --templates-from takes ids, one a line (as \`wsm templates create -q\` prints them)`,
    );
  const ids = [...given.map((id) => parseId(id, '--template')), ...lines.map((id) => parseId(id, `template id in ${from}`))];
  return [...new Set(ids.map(String))];
}

/** The ids PENDING before the sync, where the server lists templates; undefined where it cannot. `retry`: a wait's. */
async function pendingBefore(client: WsmClient, retry: RetryPolicy | undefined): Promise<string[] | undefined> {
  try {
    const ids: string[] = [];
    for await (const t of client.templates.list({ status: 'PENDING' }).rows(retry ? { retry } : {}))
      if (t.status === 'PENDING' || t.status === undefined) ids.push(String(t.id));
    return ids;
  } catch (error) {
    if (error instanceof UnsupportedEndpointError) return undefined;
    throw error;
  }
}

/** A tracked template's row; undefined for one that is gone. */
function outcomeOf({ id, template: t }: TrackedTemplate): Outcome | undefined {
  if (t === undefined) return undefined;
  const reason = (t as { rejection_reason?: unknown }).rejection_reason;
  return {
    id: t.id ?? id,
    name: t.name ?? '',
    language: t.language ?? '',
    status: t.status ?? '',
    rejection_reason: typeof reason === 'string' ? reason : null,
  };
}

/** `template 999` / `templates 998, 999`. */
function templateIds(ids: string[]): string {
  return `template${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
}

/**
 * A sync's outcome in the CLI's words: `{"outcome": "nothing_pending", ...}` exits 0 with nothing
 * in it saying it failed (the published API's 404 `{success: false}` is no fault; its envelope is not ours).
 */
export interface SyncOutcome {
  outcome: 'synced' | 'nothing_pending';
  message: string;
}

/** The sync's answer as -o json prints it and `wsm mcp` returns it. */
export function syncOutcome(result: TemplateSyncResult): SyncOutcome {
  return result.nothing_pending ? { outcome: 'nothing_pending', message: NOTHING_PENDING } : { outcome: 'synced', message: result.message };
}

export async function parse({ opts }: CommandLine<typeof SYNC_FLAGS>, ctx: Context): Promise<SyncOptions> {
  const wait = opts.wait === true;
  const failOnRejected = opts.failOnRejected === true;
  const timeoutMs = waitTimeoutMs(opts.timeout);
  const intervalMs = parseDuration(opts.interval ?? '5s', '--interval');
  return { wait, failOnRejected, timeoutMs, intervalMs, tracked: await trackedIds(ctx, opts), flags: opts };
}

export async function run(ctx: Context, options: SyncOptions): Promise<SyncResult> {
  const { wait, failOnRejected, timeoutMs, intervalMs, tracked, flags } = options;
  const client = await workspaceClient(ctx);

  if (!wait && !failOnRejected && tracked.length === 0) return { answer: await client.templates.sync() };

  // A wait's requests: transient failures retried by the transport until the wait's time is up, each said.
  const retries = wait ? waitRetries(ctx, timeoutMs, "the templates' review") : undefined;
  const retry = retries?.retry;
  const named = tracked.length > 0;
  try {
    return await follow(ctx, flags, client, { tracked, named, wait, failOnRejected, timeoutMs, intervalMs, retry });
  } catch (error) {
    throw retries ? retries.gaveUp(error) : error;
  }
}

/** The wait ran out with templates still PENDING: settle's exit 6. */
const timedOut = (result: SyncResult, { wait }: SyncOptions) => wait && 'rows' in result && result.rows.some((r) => r.status === 'PENDING');

export async function render(ctx: Context, result: SyncResult, options: SyncOptions): Promise<void> {
  // With -o json a timed-out wait's one document is the error's, the rows inside it (settle).
  if (timedOut(result, options) && ctx.output.structured) return;
  if ('rows' in result) await ctx.output.list(result.rows, { columns: outcomeColumns });
  else if (ctx.output.quiet) return;
  else if (!ctx.output.structured) ctx.output.text(syncOutcome(result.answer).message + '\n');
  else await ctx.output.record(syncOutcome(result.answer));
}

/** The counts, then the exit: exit 6 for templates still PENDING after --wait, 7 for --fail-on-rejected. */
export function settle(ctx: Context, result: SyncResult, { wait, failOnRejected, timeoutMs }: SyncOptions): void {
  if (!('rows' in result)) return;
  const { rows, deleted } = result;
  const rejected = rows.filter((r) => r.status === 'REJECTED');
  const approved = rows.filter((r) => r.status === 'APPROVED');
  const pending = rows.filter((r) => r.status === 'PENDING');
  ctx.output.message(`${approved.length} approved, ${rejected.length} rejected, ${pending.length} still pending.`);

  if (wait && pending.length > 0) throw new WaitTimedOutError(timeoutMs, `still PENDING: ${pending.map((r) => r.name).join(', ')}`, rows);
  if (failOnRejected && (rejected.length > 0 || deleted.length > 0)) {
    const list = rejected.map((r) => `${r.name} (${r.rejection_reason ?? 'no reason given'})`).join(', ');
    const reasons = [
      ...(rejected.length > 0 ? [`${rejected.length} template${rejected.length === 1 ? ' was' : 's were'} REJECTED: ${list}`] : []),
      ...(deleted.length > 0
        ? [
            `${templateIds(deleted)} ${deleted.length === 1 ? 'was' : 'were'} deleted before ${deleted.length === 1 ? 'its' : 'their'} review ended`,
          ]
        : []),
    ];
    throw new RejectedTemplatesError(
      reasons.join('; '),
      rejected.map((r) => r.name),
    );
  }
}

interface SyncPlan {
  tracked: string[];
  named: boolean;
  wait: boolean;
  failOnRejected: boolean;
  timeoutMs: number;
  intervalMs: number;
  retry: RetryPolicy | undefined;
}

/** The sync (and its wait) once the templates to follow are known: the sync's answer, or the templates' rows. */
async function follow(ctx: Context, opts: SyncFlags, client: WsmClient, plan: SyncPlan): Promise<SyncResult> {
  const { named, wait, failOnRejected, timeoutMs, intervalMs, retry } = plan;
  let { tracked } = plan;
  if (named) {
    // A typo, or ids from another workspace: said before any sync or wait, never tracked as nothing.
    const gone = (await readTracked(client.templates, tracked, { retry })).filter((t) => t.template === undefined).map((t) => t.id);
    if (gone.length > 0) throw new CliError(`${templateIds(gone)} not found`, ExitCode.notFound);
  } else {
    const pending = await pendingBefore(client, retry);
    if (pending === undefined && failOnRejected) {
      throw new UsageError(
        'this server cannot list templates, so --fail-on-rejected needs the templates to check: pass --template <id> (repeatable) or --templates-from <file|->',
      );
    }
    if (pending !== undefined && pending.length === 0) return { answer: { ...(await client.templates.sync()), nothing_pending: true } };
    tracked = pending ?? [];
  }

  // A template named explicitly that is deleted meanwhile is said once and counts as not approved;
  // one tracked from the pre-sync list simply drops out.
  const deleted = new Set<string>();
  const rowsOf = (states: TrackedTemplate[]): Outcome[] => {
    for (const { id, template } of states) {
      if (template !== undefined || !named || deleted.has(id)) continue;
      deleted.add(id);
      ctx.output.warn(`template ${id} was deleted during the sync: it counts as not approved`);
    }
    return states.map(outcomeOf).filter((row) => row !== undefined);
  };
  let result: TemplateSyncResult;
  let rows: Outcome[] | undefined;
  let settled: boolean;
  if (!wait) {
    result = await client.templates.sync();
    settled = result.nothing_pending;
  } else {
    // The review goes on at the provider whatever happens here: Ctrl-C says so and how to wait again.
    // The bar is drawn inside the wait, where Ctrl-C is ours to handle (interrupt.ts).
    let progress: ReturnType<Context['io']['progress']> | undefined;
    let heartbeat: Heartbeat | undefined;
    try {
      const decision = await untilInterrupted(
        ctx,
        (signal) => {
          const bar = (progress = ctx.io.progress('Templates reviewed', tracked.length || undefined));
          const beat = (heartbeat = waitHeartbeat(
            ctx,
            tracked.length > 0 ? countOf(tracked.length, 'template') : 'the pending templates',
            timeoutMs,
          ));
          const onRead = (states: TrackedTemplate[]) => {
            const rows = rowsOf(states);
            bar.update(rows.filter((r) => r.status !== 'PENDING').length);
            beat.state(statusCounts(rows.map((r) => r.status)));
          };
          return client.templates.waitUntilDecided(tracked, { intervalMs, timeoutMs, signal, onRead, retry });
        },
        () => `the provider's review goes on: \`${resumeCommand(opts, tracked, named)}\` resumes the wait`,
      );
      ({ result, settled } = decision);
      rows = decision.templates && rowsOf(decision.templates);
    } finally {
      progress?.done();
      heartbeat?.stop();
    }
  }

  if (tracked.length === 0) {
    // --wait alone on a server that cannot list templates: the sync's own answer is the outcome.
    if (!settled) throw new WaitTimedOutError(timeoutMs, 'templates are still PENDING on the server', syncOutcome(result));
    return { answer: result };
  }

  rows ??= rowsOf(await readTracked(client.templates, tracked, { retry }));
  return { rows, deleted: [...deleted] };
}

/** `templates sync --wait` with what decided the interrupted run's outcome: the templates it tracked, --fail-on-rejected. */
function resumeCommand(opts: SyncFlags, tracked: string[], named: boolean): string {
  const words = ['wsm templates sync --wait'];
  if (opts.failOnRejected === true) words.push('--fail-on-rejected');
  const from = opts.templatesFrom;
  // Ids read from a file are read again from it; ids from stdin or flags are named.
  if (from !== undefined && from !== '-' && opts.template === undefined) words.push('--templates-from', shellWord(from));
  else if (named) words.push(...tracked.flatMap((id) => ['--template', id]));
  return words.join(' ');
}
