// Reading what a real server sends. The published API leaves most answer shapes open ("response body: not
// shown", "fields as returned: not shown"), so a 2xx is a success whatever its body: the record is
// found at `data`, under one named key, or is the body itself; unknown fields are kept as they are.
// Only an answer the client cannot use at all is an error, naming the field it lacks.
import { UnusableResponseError } from './errors.js';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The record in a 2xx body: `data` when it is an object, else `key` (e.g. `template` in
 * `{success: true, template}`), else the body itself when it looks like a record (has an `id`).
 * `{data: null}`, `{}` or `{success: true}` hold none: undefined.
 */
export function recordIn<T>(body: unknown, key?: string): T | undefined {
  if (!isJsonObject(body)) return undefined;
  if (isJsonObject(body.data)) return body.data as T;
  if (key !== undefined && isJsonObject(body[key])) return body[key] as T;
  if ('data' in body) return undefined;
  return body.id !== undefined && body.id !== null ? (body as T) : undefined;
}

/** A record the caller cannot do without (a get): without one, exit 1 naming what was asked. */
export function requireRecord<T>(body: unknown, what: string, key?: string): T {
  const record = recordIn<T>(body, key);
  if (record === undefined) throw new UnusableResponseError(`the server's answer to ${what} holds no record (no \`data\` object)`);
  return record;
}

/** The answer to a create or an update: the record when the server sent one, and its message. */
export interface Written<T> {
  data: T | undefined;
  message?: string;
  /** The body as sent, for `-o json` when it holds no record. */
  body: unknown;
}

export function written<T>(body: unknown, key?: string): Written<T> {
  const message = isJsonObject(body) && typeof body.message === 'string' ? body.message : undefined;
  return { data: recordIn<T>(body, key), body, ...(message !== undefined ? { message } : {}) };
}

/** Permission entries are names, or objects with a `name` (`{id, name, guard_name}`). */
export function permissionName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (isJsonObject(entry) && typeof entry.name === 'string') return entry.name;
  return undefined;
}

/** A list of permission entries as names; undefined when the server did not send the list. */
export function permissionNames(entries: unknown): string[] | undefined {
  if (!Array.isArray(entries)) return undefined;
  return entries.map(permissionName).filter((name): name is string => name !== undefined);
}

/** The record of a create whose id the caller needs (`wsm apply`): without one, exit 1 naming it. */
export function createdRecord<T>(answer: Written<T>, what: string): T {
  const id = (answer.data as { id?: unknown } | undefined)?.id;
  if (answer.data === undefined || id === undefined || id === null) {
    throw new UnusableResponseError(`the server's answer to creating ${what} holds no record with an \`id\`, so it cannot be followed`);
  }
  return answer.data;
}
