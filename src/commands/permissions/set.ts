// `wsm permissions set <perm...> | --file <path|-> | (stdin)`: the defaults for new partner
// workspaces. Names are checked against the contract's list before anything is sent.
import { partnerPermissionsBody } from '../../api/schemas/index.js';
import { UsageError } from '../../cli/errors.js';
import { checkLocal, readTextInput, str, verb } from '../shared/verb.js';
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
    if (!Array.isArray(parsed) || parsed.some((n) => typeof n !== 'string')) throw new UsageError('the JSON permission list must be an array of strings');
    return parsed as string[];
  }
  return trimmed.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

export const run = verb(async (ctx, { args, opts }) => {
  const file = str(opts.file);
  if (file !== undefined && args.length > 0) throw new UsageError('give permissions as arguments or with --file, not both');
  let names = args;
  if (file !== undefined) names = parseNames(await readTextInput(ctx, file));
  else if (args.length === 0) {
    if (ctx.io.isStdinTTY) throw new UsageError('no permissions given: pass names, --file <path>, or pipe them in');
    names = parseNames(await ctx.io.readStdin());
  }
  checkLocal(partnerPermissionsBody, { permissions: names }, 'permission list');
  const client = await ctx.client();
  const { data } = await client.permissions.setPartnerDefaults(names);
  const rows: PermissionRow[] = (data?.permissions ?? names).map((name) => ({ group: name.split('.')[0], name }));
  await ctx.output.list(rows, { columns: permissionColumns, idKey: 'name' });
  ctx.output.message(`Partner default permissions set (${rows.length}).`);
});
