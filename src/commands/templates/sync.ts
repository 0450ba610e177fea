// `wsm templates sync [--wait] [--timeout 30m] [--interval 5s] [--fail-on-rejected]`
//
// A plain sync is one POST; a 404 there means nothing is PENDING (api.md), which is success.
// --wait and --fail-on-rejected need to know which templates this sync is about: those PENDING
// before it. --wait repeats the sync until none of them is PENDING any more (or the timeout,
// exit 6: the provider did not decide in time); --fail-on-rejected then exits 7 naming each of
// them that ended REJECTED with its reason.
import type { WsmClient } from '../../api/client.js';
import type { TemplateSyncResult } from '../../api/resources/templates.js';
import type { Template } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, RejectedTemplatesError } from '../../cli/errors.js';
import type { Column } from '../../cli/output.js';
import { parseDuration, sleep, verb, workspaceClient } from '../shared/verb.js';

interface Outcome {
  id: number;
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

async function pendingIds(client: WsmClient): Promise<Set<number>> {
  const ids = new Set<number>();
  for await (const t of client.templates.iterate({ status: 'PENDING' })) ids.add(t.id);
  return ids;
}

/** Current state of the templates that were PENDING before; deleted ones drop out. */
async function outcomes(client: WsmClient, tracked: Map<number, Template>): Promise<Outcome[]> {
  const rows: Outcome[] = [];
  for await (const t of client.templates.iterate()) {
    if (tracked.has(t.id)) rows.push({ id: t.id, name: t.name, language: t.language, status: t.status, rejection_reason: t.rejection_reason ?? null });
  }
  return rows;
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
  const client = await workspaceClient(ctx);

  if (!wait && !failOnRejected) return printSyncAnswer(ctx, await client.templates.sync());

  const tracked = new Map<number, Template>();
  for await (const t of client.templates.iterate({ status: 'PENDING' })) tracked.set(t.id, t);
  const deadline = Date.now() + timeoutMs;
  let result = await client.templates.sync();
  if (tracked.size === 0) return printSyncAnswer(ctx, { ...result, nothing_pending: true });

  let stillPending = new Set<number>();
  if (wait) {
    const progress = ctx.io.progress('Templates reviewed', tracked.size);
    try {
      for (;;) {
        stillPending = result.nothing_pending ? new Set() : intersect(await pendingIds(client), tracked);
        progress.update(tracked.size - stillPending.size);
        if (stillPending.size === 0 || Date.now() >= deadline) break;
        await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
        result = await client.templates.sync();
      }
    } finally {
      progress.done();
    }
  }

  const rows = await outcomes(client, tracked);
  await ctx.output.list(rows, { columns: outcomeColumns });
  const rejected = rows.filter((r) => r.status === 'REJECTED');
  const approved = rows.filter((r) => r.status === 'APPROVED');
  const pending = rows.filter((r) => r.status === 'PENDING');
  ctx.output.message(`${approved.length} approved, ${rejected.length} rejected, ${pending.length} still pending.`);

  if (wait && stillPending.size > 0) {
    const names = rows.filter((r) => stillPending.has(r.id)).map((r) => r.name);
    throw new CliError(`timed out after ${formatMs(timeoutMs)}: still PENDING: ${names.join(', ')}`, ExitCode.unavailable);
  }
  if (failOnRejected && rejected.length > 0) {
    const list = rejected.map((r) => `${r.name} (${r.rejection_reason ?? 'no reason given'})`).join(', ');
    throw new RejectedTemplatesError(`${rejected.length} template${rejected.length === 1 ? ' was' : 's were'} REJECTED: ${list}`, rejected.map((r) => r.name));
  }
});

function intersect(ids: Set<number>, tracked: Map<number, unknown>): Set<number> {
  return new Set([...ids].filter((id) => tracked.has(id)));
}

function formatMs(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1000}s`;
}
