// A question about a change comes after the check the server would make: where the server says
// what the caller may do in the workspace (GET /me's `permissions` per workspace, an extension of
// `wsm serve`), a caller lacking the operation's permission is refused before being asked, as the
// server's 403 would refuse them after the answer. Where it cannot say (no /me, an older /me, an
// answer of another shape), nothing changes: the question is asked and the server decides.
import { APIStatusError, UnsupportedEndpointError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import { CATALOG, descriptionOf, type ResourceKey } from '../../api/descriptions/catalog.js';
import type { Context } from '../../cli/context.js';
import { PermissionLackingError } from '../../cli/errors.js';

/** The permissions the caller holds in `workspace`, or undefined where the server cannot say. */
async function heldPermissions(client: WsmClient, workspace: string): Promise<readonly string[] | undefined> {
  let answer: unknown;
  try {
    answer = await client.me();
  } catch (error) {
    // A missing /me, or one refusing in its own way: the server decides at the request itself.
    // A 401 or an unreachable server fails the same at the request, so it is said now.
    if (error instanceof UnsupportedEndpointError || (error instanceof APIStatusError && error.status !== 401 && error.status < 500))
      return undefined;
    throw error;
  }
  const workspaces = (answer as { data?: { workspaces?: unknown } } | undefined)?.data?.workspaces;
  if (!Array.isArray(workspaces)) return undefined;
  const entry = workspaces.find((w) => typeof w?.id === 'string' && w.id.toLowerCase() === workspace.toLowerCase());
  const permissions: unknown = entry?.permissions;
  if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string')) return undefined;
  return permissions;
}

/** A change a question is about: an operation of a resource's description (`contacts`, `delete`). */
export interface AskedChange {
  resource: ResourceKey;
  operation: string;
}

/** `delete contacts (it lacks contacts.delete)`, or undefined where the change needs no permission of the workspace. */
async function needed({ resource, operation }: AskedChange): Promise<{ permission: string; words: string } | undefined> {
  const access = (await descriptionOf(resource)).operations[operation]?.access;
  if (access === undefined || typeof access === 'string') return undefined;
  const identity = CATALOG[resource] as { sentence?: readonly [string, string]; noun: string };
  const things = identity.sentence?.[1] ?? `${identity.noun}s`;
  return { permission: access.permission, words: `${operation} ${things} (it lacks ${access.permission})` };
}

/**
 * Before asking about `changes`: exit 3 with one line (`your role may not delete contacts (it
 * lacks contacts.delete): nothing was changed`) where the server says the caller lacks a
 * permission they need; each lacking one is named once.
 */
export async function refuseWithoutPermission(ctx: Context, client: WsmClient, changes: readonly AskedChange[]): Promise<void> {
  const needs = (await Promise.all(changes.map(needed))).filter((need) => need !== undefined);
  if (needs.length === 0) return;
  const held = await heldPermissions(client, await ctx.workspace());
  if (held === undefined) return;
  const lacking = [...new Set(needs.filter((need) => !held.includes(need.permission)).map((need) => need.words))];
  if (lacking.length > 0) throw new PermissionLackingError(`your role may not ${lacking.join(', ')}: nothing was changed`);
}

/** ctx.confirm after that check: only where a question would be asked (a terminal, no --yes). */
export async function confirmPermitted(
  ctx: Context,
  client: WsmClient,
  changes: readonly AskedChange[],
  question: string,
  action: string,
): Promise<void> {
  if (!ctx.globals.yes && ctx.io.isStdinTTY) await refuseWithoutPermission(ctx, client, changes);
  await ctx.confirm(question, action);
}
