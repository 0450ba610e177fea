// `wsm templates sync [--wait] [--timeout 30m] [--interval 5s] [--fail-on-rejected]
//                     [--template <id>]... [--templates-from <file|->]`
//
// Works on api.md's operations alone. A plain sync is one POST; a 404 there means nothing is
// PENDING (api.md: not a fault), which is success. --wait repeats the sync until the server says
// so (or until every tracked template is decided); no template list is needed. The tracked
// templates are those named with --template / --templates-from, or, where the server lists
// templates (an extension), those PENDING before the sync; each is read with GET /templates/{id}.
// --fail-on-rejected exits 7 naming each tracked template that ended REJECTED. During a wait,
// transient failures (5xx, 429, no connection) are retried with backoff until the timeout; only
// a failure at the timeout exits 6, naming its cause.
import type { WsmClient } from '../../api/client.js';
import { APIConnectionError, APIStatusError, NotFoundError, UnsupportedEndpointError } from '../../api/errors.js';
import type { TemplateSyncResult } from '../../api/resources/templates.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, RejectedTemplatesError, UsageError } from '../../cli/errors.js';
import { sleep, untilInterrupted } from '../../cli/interrupt.js';
import { shellWord } from '../../cli/suggest.js';
import type { Column } from '../../cli/output.js';
import { parseDuration, parseId, readTextInput, str, verb, workspaceClient } from '../shared/verb.js';

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
const MAX_BACKOFF_MS = 30_000;

interface Wait {
  deadline: number;
  intervalMs: number;
  /** Aborted by Ctrl-C: pauses end at once. */
  signal?: AbortSignal;
}

/** Template ids from --template (repeatable) and --templates-from (one a line, as `templates create -q` prints them). */
async function trackedIds(ctx: Context, opts: Record<string, unknown>): Promise<string[]> {
  const given = Array.isArray(opts.template) ? (opts.template as string[]) : [];
  const from = str(opts.templatesFrom);
  const lines = from === undefined ? [] : (await readTextInput(ctx, from)).split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  // An empty file is no request to fall back on the pending list: a create step upstream failed.
  if (from !== undefined && lines.length === 0) throw new UsageError(`${from === '-' ? 'standard input' : from} names no templates: --templates-from takes ids, one a line (as \`wsm templates create -q\` prints them)`);
  const ids = [...given.map((id) => parseId(id, '--template')), ...lines.map((id) => parseId(id, `template id in ${from}`))];
  return [...new Set(ids.map(String))];
}

/** The ids PENDING before the sync, where the server lists templates; undefined where it cannot. */
async function pendingBefore(client: WsmClient): Promise<string[] | undefined> {
  try {
    const ids: string[] = [];
    for await (const t of client.templates.iterate({ status: 'PENDING' })) if (t.status === 'PENDING' || t.status === undefined) ids.push(String(t.id));
    return ids;
  } catch (error) {
    if (error instanceof UnsupportedEndpointError) return undefined;
    throw error;
  }
}

/** Server and network trouble that a later attempt may not meet. */
function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIStatusError && (error.status >= 500 || error.status === 429 || error.status === 408);
}

/** Runs `call`, retrying transient failures with a doubling pause until the deadline; then the last failure stands. */
async function untilDeadline<T>(ctx: Context, wait: Wait, call: () => Promise<T>): Promise<T> {
  const base = Math.min(Math.max(wait.intervalMs, 100), 1000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const remaining = wait.deadline - Date.now();
      if (!isTransient(error) || remaining <= 0) throw error;
      const pause = Math.min(base * 2 ** attempt, MAX_BACKOFF_MS, remaining);
      ctx.output.message(`${(error as Error).message}: trying again in ${formatMs(pause)}`);
      await sleep(pause, wait.signal);
    }
  }
}

/** Current state of the tracked templates, read one by one (api.md's GET), and the ids that are gone (404). */
async function outcomes(client: WsmClient, tracked: string[], signal?: AbortSignal): Promise<{ rows: Outcome[]; gone: string[] }> {
  const rows: Outcome[] = [];
  const gone: string[] = [];
  for (const id of tracked) {
    try {
      const { data: t } = await client.templates.get(id, { signal });
      const reason = (t as { rejection_reason?: unknown }).rejection_reason;
      rows.push({ id: t.id ?? id, name: t.name ?? '', language: t.language ?? '', status: t.status ?? '', rejection_reason: typeof reason === 'string' ? reason : null });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      gone.push(id);
    }
  }
  return { rows, gone };
}

/** `template 999` / `templates 998, 999`. */
function templateIds(ids: string[]): string {
  return `template${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
}

function printSyncAnswer(ctx: Context, result: TemplateSyncResult): Promise<void> | void {
  if (ctx.output.quiet) return;
  const message = result.nothing_pending ? NOTHING_PENDING : result.message;
  if (ctx.output.format === 'table' || ctx.output.format === 'csv') return ctx.io.out(message + '\n');
  return ctx.output.record({ success: result.success, nothing_pending: result.nothing_pending, message: result.message });
}

export const run = verb(async (ctx, { opts }) => {
  const wait = opts.wait === true;
  const failOnRejected = opts.failOnRejected === true;
  const timeoutMs = parseDuration(opts.timeout ?? '30m', '--timeout');
  const intervalMs = parseDuration(opts.interval ?? '5s', '--interval');
  let tracked = await trackedIds(ctx, opts);
  const client = await workspaceClient(ctx);

  if (!wait && !failOnRejected && tracked.length === 0) return printSyncAnswer(ctx, await client.templates.sync());

  const named = tracked.length > 0;
  const limits: Wait = { deadline: Date.now() + timeoutMs, intervalMs };
  const attempt = <T>(call: () => Promise<T>) => (wait ? untilDeadline(ctx, limits, call) : call());
  if (named) {
    // A typo, or ids from another workspace: said before any sync or wait, never tracked as nothing.
    const { gone } = await attempt(() => outcomes(client, tracked));
    if (gone.length > 0) throw new CliError(`${templateIds(gone)} not found`, ExitCode.notFound);
  } else {
    const pending = await pendingBefore(client);
    if (pending === undefined && failOnRejected) {
      throw new UsageError('this server cannot list templates, so --fail-on-rejected needs the templates to check: pass --template <id> (repeatable) or --templates-from <file|->');
    }
    if (pending !== undefined && pending.length === 0) return printSyncAnswer(ctx, { ...(await client.templates.sync()), nothing_pending: true });
    tracked = pending ?? [];
  }

  // A template named explicitly that is deleted meanwhile is said once and counts as not approved;
  // one tracked from the pre-sync list simply drops out.
  const deleted = new Set<string>();
  const read = async (signal?: AbortSignal): Promise<Outcome[]> => {
    const { rows, gone } = await outcomes(client, tracked, signal);
    for (const id of gone) {
      if (!named || deleted.has(id)) continue;
      deleted.add(id);
      ctx.output.warn(`template ${id} was deleted during the sync: it counts as not approved`);
    }
    return rows;
  };
  let result: TemplateSyncResult;
  let rows: Outcome[] | undefined;
  let settled: boolean;
  if (!wait) {
    result = await client.templates.sync();
    settled = result.nothing_pending;
  } else {
    // The review goes on at the provider whatever happens here: Ctrl-C says so and how to wait again.
    ({ result, rows, settled } = await untilInterrupted(
      (signal) => waitUntilDecided(ctx, client, tracked.length, read, { ...limits, signal }),
      () => `the provider's review goes on: \`${resumeCommand(opts, tracked, named)}\` resumes the wait`,
      ctx.interrupts,
    ));
  }

  if (tracked.length === 0) {
    // --wait alone on a server that cannot list templates: the sync's own answer is the outcome.
    if (!settled) throw new CliError(`timed out after ${formatMs(timeoutMs)}: templates are still PENDING on the server`, ExitCode.unavailable);
    return printSyncAnswer(ctx, result);
  }

  rows ??= await attempt(() => read());
  await ctx.output.list(rows, { columns: outcomeColumns });
  const rejected = rows.filter((r) => r.status === 'REJECTED');
  const approved = rows.filter((r) => r.status === 'APPROVED');
  const pending = rows.filter((r) => r.status === 'PENDING');
  ctx.output.message(`${approved.length} approved, ${rejected.length} rejected, ${pending.length} still pending.`);

  if (wait && pending.length > 0) {
    throw new CliError(`timed out after ${formatMs(timeoutMs)}: still PENDING: ${pending.map((r) => r.name).join(', ')}`, ExitCode.unavailable);
  }
  if (failOnRejected && (rejected.length > 0 || deleted.size > 0)) {
    const list = rejected.map((r) => `${r.name} (${r.rejection_reason ?? 'no reason given'})`).join(', ');
    const reasons = [
      ...(rejected.length > 0 ? [`${rejected.length} template${rejected.length === 1 ? ' was' : 's were'} REJECTED: ${list}`] : []),
      ...(deleted.size > 0 ? [`${templateIds([...deleted])} ${deleted.size === 1 ? 'was' : 'were'} deleted before ${deleted.size === 1 ? 'its' : 'their'} review ended`] : []),
    ];
    throw new RejectedTemplatesError(reasons.join('; '), rejected.map((r) => r.name));
  }
});

/**
 * Syncs until nothing is PENDING (or every tracked template is decided, or the deadline): the
 * last sync's answer, the tracked templates' states when read, whether it settled. Progress on a
 * terminal: the tracked templates decided so far.
 */
async function waitUntilDecided(
  ctx: Context,
  client: WsmClient,
  trackedCount: number,
  read: (signal?: AbortSignal) => Promise<Outcome[]>,
  limits: Wait,
): Promise<{ result: TemplateSyncResult; rows?: Outcome[]; settled: boolean }> {
  const attempt = <T>(call: () => Promise<T>) => untilDeadline(ctx, limits, call);
  const progress = ctx.io.progress('Templates reviewed', trackedCount || undefined);
  try {
    for (;;) {
      const result = await attempt(() => client.templates.sync({ signal: limits.signal }));
      let rows: Outcome[] | undefined;
      if (!result.nothing_pending && trackedCount > 0) {
        rows = await attempt(() => read(limits.signal));
        progress.update(rows.filter((r) => r.status !== 'PENDING').length);
      }
      const settled = result.nothing_pending || (rows !== undefined && rows.every((r) => r.status !== 'PENDING'));
      if (settled || Date.now() >= limits.deadline) return { result, rows, settled };
      await sleep(Math.min(limits.intervalMs, Math.max(0, limits.deadline - Date.now())), limits.signal);
    }
  } finally {
    progress.done();
  }
}

/** `templates sync --wait` with what decided the interrupted run's outcome: the templates it tracked, --fail-on-rejected. */
function resumeCommand(opts: Record<string, unknown>, tracked: string[], named: boolean): string {
  const words = ['wsm templates sync --wait'];
  if (opts.failOnRejected === true) words.push('--fail-on-rejected');
  const from = str(opts.templatesFrom);
  // Ids read from a file are read again from it; ids from stdin or flags are named.
  if (from !== undefined && from !== '-' && !Array.isArray(opts.template)) words.push('--templates-from', shellWord(from));
  else if (named) words.push(...tracked.flatMap((id) => ['--template', id]));
  return words.join(' ');
}

function formatMs(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms) / 1000}s`;
}
