// `wsm permissions set <perm...> | --file <path|-> | (stdin)`: the defaults for new partner
// workspaces. Names are checked against the server's own listing before anything is sent.
import { permissionNames } from '../../api/answers.js';
import type { WsmClient } from '../../api/client.js';
import { APIStatusError, UnusableResponseError } from '../../api/errors.js';
import { checkBody } from '../../api/resources/base.js';
import { partnerPermissionsShape } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { isUuid } from '../../cli/values.js';
import type { CommandLine } from '../declare.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { readTextInput } from '../shared/verb.js';
import type { SET_FLAGS } from '../permissions.js';
import { permissionColumns, type PermissionRow } from './list.js';

/** A JSON array of names, or one name a line (blank lines and `#` comments skipped). */
export function parseNames(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new UsageError(`the permission list is not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || parsed.some((n) => typeof n !== 'string'))
      throw new UsageError('the JSON permission list must be an array of strings');
    return parsed as string[];
  }
  return trimmed
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The names, from the arguments, --file or standard input: read here, since parse reads argv alone. */
export function parse({ args, opts }: CommandLine<typeof SET_FLAGS>): { names: string[]; file?: string } {
  if (opts.file !== undefined && args.length > 0) throw new UsageError('give permissions as arguments or with --file, not both');
  return { names: args, ...(opts.file !== undefined ? { file: opts.file } : {}) };
}

/** Sets the partner defaults; returns them as the server kept them, one row a permission. */
export async function run(ctx: Context, given: { names: string[]; file?: string }): Promise<PermissionRow[]> {
  const names = await namesOf(ctx, given);
  const client = await ctx.client();
  await checkAgainstListing(ctx, client, names);
  const write = {
    resource: 'permissions' as const,
    operation: 'setPartnerDefaults',
    body: { permissions: names },
    check: partnerPermissionsShape,
  };
  const { data } = await journaledWrite(ctx, client, write, () => client.permissions.setPartnerDefaults(names));
  const kept = permissionNames(data?.permissions) ?? names;
  return kept.map((name) => ({ group: name.split('.')[0] ?? '', name }));
}

export async function render(ctx: Context, rows: PermissionRow[]): Promise<void> {
  await ctx.output.list(rows, { columns: permissionColumns, idKey: 'name' });
  ctx.output.done(`set the partner default permissions (${rows.length})`);
}

async function namesOf(ctx: Context, { names, file }: { names: string[]; file?: string }): Promise<string[]> {
  if (file !== undefined) return parseNames(await readTextInput(ctx, file));
  if (names.length > 0) return names;
  if (ctx.io.isStdinTTY) throw new UsageError('no permissions given: pass names, --file <path>, or pipe them in');
  return parseNames(await ctx.io.readStdin());
}

/**
 * The published API: the names "must be valid permissions from the permissions listing". That listing is
 * the server's own, so names are checked against it when it can be read (a workspace is set and
 * the caller may list); otherwise they go as given and the server's answer decides. The list's
 * shape is the client's check, made here before the listing is read (and again as it is sent).
 */
async function checkAgainstListing(ctx: Context, client: WsmClient, names: string[]): Promise<void> {
  const { workspace } = await ctx.settings();
  if (workspace === undefined || !isUuid(workspace)) return;
  checkBody(partnerPermissionsShape, { permissions: names }, 'permission list');
  let listed: Set<string>;
  try {
    listed = new Set((await client.permissions.list()).map((entry) => entry.name));
  } catch (error) {
    if (error instanceof APIStatusError || error instanceof UnusableResponseError) return;
    throw error;
  }
  if (listed.size === 0) return;
  const unknown = names.filter((name) => !listed.has(name));
  if (unknown.length > 0) {
    const errors = Object.fromEntries(
      unknown.map((name) => [`permissions.${names.indexOf(name)}`, [`${name} is not in the server's permission listing.`]]),
    );
    throw new RequestValidationError(
      `the server does not list ${unknown.join(', ')}: nothing was sent (\`wsm permissions list\` shows the names it knows)`,
      errors,
    );
  }
}
