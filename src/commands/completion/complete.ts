// `wsm __complete <kind> [resource]`: the live values the completion scripts offer, one a line
// as `value<TAB>description`. A completion must never hang a shell or print an error into it:
// requests get a short timeout and no retries, and any failure prints nothing.
import type { WsmClient } from '../../api/client.js';
import type { VerbInput } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import { visibleLine } from '../../cli/text.js';
import { ID_RESOURCES } from './values.js';

const COMPLETION_TIMEOUT_MS = 2000;

type Named = { id: number | string; name?: string; number?: string };

async function quickClient(ctx: Context): Promise<WsmClient | undefined> {
  const { baseUrl, token, workspace } = await ctx.settings();
  if (!baseUrl || !token) return undefined;
  return ctx.clientFor({ baseUrl, token, workspace, timeoutMs: COMPLETION_TIMEOUT_MS, maxRetries: 0 });
}

const line = (value: string, description = '') => `${visibleLine(value)}\t${visibleLine(description)}`;

async function values(ctx: Context, kind: string, resource: string | undefined): Promise<string[]> {
  if (kind === 'profiles') return (await ctx.config()).listProfiles().map((p) => line(p.name, p.profile.base_url ?? ''));
  const client = await quickClient(ctx);
  if (!client) return [];
  if (kind === 'workspaces') {
    const { data } = await client.me();
    return (data.workspaces ?? []).map((w) => line(w.id, w.name));
  }
  if (kind === 'permissions') {
    return (await client.permissions.list()).map((entry) => line(entry.name));
  }
  if (kind === 'ids' && resource !== undefined && ID_RESOURCES.includes(resource)) {
    const collection = client[resource as 'groups'] as unknown as { list(q: { per_page: number }): Promise<{ data: Named[] }> };
    const { data } = await collection.list({ per_page: PER_PAGE_MAX });
    return data.map((r) => line(String(r.id), [r.name, r.number].filter(Boolean).join(' ')));
  }
  return [];
}

/** What is to be completed: a kind of value, and for ids the resource. */
export interface Completing {
  kind: string;
  resource?: string;
}

export function parse({ args }: VerbInput): Completing {
  return { kind: args[0] ?? '', ...(args[1] !== undefined ? { resource: args[1] } : {}) };
}

/** The values, one `value<TAB>description` line each; none when anything fails. */
export async function run(ctx: Context, { kind, resource }: Completing): Promise<string[]> {
  try {
    return await values(ctx, kind, resource);
  } catch {
    // Not logged in, no such endpoint, too slow: nothing to offer.
    return [];
  }
}

export function render(ctx: Context, lines: string[]): void {
  if (lines.length > 0) ctx.output.text(lines.join('\n') + '\n');
}
