// Glue every verb of the API resources shares: flag parsing with zod, naming a body's fields by flag.
// The client checks bodies; its errors (nothing sent, extension missing) go to handleError as they are.
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import { badDuration, parseDuration as durationMs } from '../../cli/duration.js';
import { cannotRead, RequestValidationError, namedFields, UsageError } from '../../cli/errors.js';
import { hostFile } from '../../cli/host-files.js';
import { readableFileSize } from '../../cli/import-source.js';

/** The client, after making sure a valid workspace is set (exit 2 before anything is sent). */
export async function workspaceClient(ctx: Context): Promise<WsmClient> {
  await ctx.workspace();
  return ctx.client();
}

/** For a verb that needs no server (a dry run): the client when one is configured, so that field columns are checked too. */
export function clientIfConfigured(ctx: Context): Promise<WsmClient | undefined> {
  return workspaceClient(ctx).catch(() => undefined);
}

export const positiveInt = z.coerce.number().int().positive();

/** What a value must be, in words, from zod's first issue (used when the caller gives none). */
function expectation(issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code === 'invalid_value' && issue.values.length > 0) return `one of ${issue.values.map(String).join(', ')}`;
  return issue?.message.replace(/^Invalid input: /, '') ?? 'valid';
}

/**
 * One wording for a bad value everywhere: a flag `takes` what it needs (`--per-page takes a whole
 * number from 1 to 100, got "0"`), an argument `must be` it (`contact id must be a positive integer, got "abc"`).
 */
export function badValue(name: string, expected: string, value: unknown): UsageError {
  const setting = /^(-|[A-Z_]+$)/.test(name); // a flag or an environment variable
  return new UsageError(`${name} ${setting ? 'takes' : 'must be'} ${expected}, got "${String(value)}"`);
}

/** Parses one flag or argument with zod; a bad value is a usage error worded by badValue. */
export function parseValue<S extends z.ZodType>(schema: S, value: unknown, name: string, expected?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badValue(name, expected ?? expectation(result.error.issues[0]), value);
  return result.data;
}

/** `<id>` arguments and id flags: a positive integer. `name` reads like "contact id" or "--group". */
export function parseId(value: unknown, name = 'id'): number {
  // 99999999999999999999 is a positive integer, just not one an id can be: say so.
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value) && Number(value) > Number.MAX_SAFE_INTEGER) {
    throw badValue(name, `at most ${Number.MAX_SAFE_INTEGER}`, value);
  }
  return parseValue(positiveInt, value, name, 'a positive integer');
}

/** `name=value` pairs of a repeatable option into an object; a pair without `=` is a usage error. */
export function keyValues(pairs: unknown, flag: string): Record<string, string> | undefined {
  if (!Array.isArray(pairs) || pairs.length === 0) return undefined;
  const result: Record<string, string> = {};
  for (const pair of pairs as string[]) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes name=value, got "${pair}"`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}

/**
 * How this command's user named the body's fields, for a failure's field errors: `role_id` ->
 * `--role`; a list's items by the value given (`permissions.0` -> `--permission contacts.veiw`);
 * a map's entries by their key (`fields.city` -> `--field city`).
 */
export function fieldLabels(body: Record<string, unknown>, flags: Record<string, string>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [field, flag] of Object.entries(flags)) {
    labels[field] = flag;
    const value = body[field];
    if (Array.isArray(value)) value.forEach((item, i) => (labels[`${field}.${i}`] = `${flag} ${String(item)}`));
    else if (value !== null && typeof value === 'object')
      for (const key of Object.keys(value)) labels[`${field}.${key}`] = `${flag} ${key}`;
  }
  return labels;
}

/** A promise's `catch`: the failure rethrown, its field errors named by `flags` (and the body's items). */
export function namingFields(flags: Record<string, string>, body: Record<string, unknown> = {}): (error: unknown) => never {
  return (error) => {
    throw namedFields(error, fieldLabels(body, flags));
  };
}

/**
 * Runs `work`; a failure with field errors (the client's check, the server's 422) carries the
 * names `labels` gives them, read when it fails (the body as it then stands).
 */
export async function withFieldNames<T>(labels: () => Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw namedFields(error, labels());
  }
}

/**
 * `nothing to update: pass at least one of --name, --color` when an update would send nothing;
 * `otherChange`: a change outside the body was asked for (an avatar, a password to be asked).
 */
export function requireSomething(body: object, flags: readonly string[], otherChange = false): void {
  if (flags.length > 0 && Object.keys(body).length === 0 && !otherChange)
    throw new UsageError(`nothing to update: pass at least one of ${flags.join(', ')}`);
}

/** Checks a file to upload before anything is sent: present, a regular file, not too big. */
export async function checkUploadFile(ctx: Context, path: string, field: string, maxBytes?: number): Promise<void> {
  hostFile(ctx, path);
  const size = await readableFileSize(path, 'upload', ': nothing was sent');
  refuseOverLimit(path, size, field, maxBytes);
}

/** A file over the server's limit, refused before sending: the server would take all of it first, then answer a bare 413. */
export function refuseOverLimit(named: string, size: number, field: string, maxBytes: number | undefined): void {
  if (maxBytes !== undefined && size > maxBytes) {
    throw new RequestValidationError(`${named} is too large: nothing was sent`, {
      [field]: [`The ${field} must not be greater than ${Math.floor(maxBytes / 1024)} kilobytes.`],
    });
  }
}

/** A file's text, or stdin for `-`; an unreadable file is exit 2. */
export async function readTextInput(ctx: Context, path: string): Promise<string> {
  return (await readBytesInput(ctx, path)).toString('utf8');
}

/** The bytes of a file, or of standard input for "-": for input whose encoding is checked, never decoded leniently. */
export async function readBytesInput(ctx: Context, path: string): Promise<Buffer> {
  if (path === '-') {
    if (ctx.io.isStdinTTY) throw new UsageError('"-" reads standard input, which is a terminal: pipe the content in');
    return ctx.io.readStdinBytes();
  }
  try {
    return await readFile(hostFile(ctx, path));
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** `30m`, `90s`, `1h`, `500ms`; a bare number is seconds. */
export function parseDuration(value: unknown, flag: string): number {
  const ms = typeof value === 'string' ? durationMs(value) : undefined;
  if (ms === undefined) throw badDuration(flag, value);
  return ms;
}
