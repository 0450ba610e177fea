// `wsm api <METHOD> <path> [-f key=value]... [--input file|-]`: prints the server's JSON answer.
// On an error status the body is printed too (stdout), so scripts can read it, and the exit code
// follows the usual table.
import { APIStatusError } from '../../api/errors.js';
import type { HttpMethod, QueryParams } from '../../api/transport.js';
import { UsageError } from '../../cli/errors.js';
import type { Context } from '../../cli/context.js';
import type { API_FLAGS } from '../api.js';
import type { CommandLine } from '../declare.js';
import { readTextInput } from '../shared/verb.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `key=value` pairs; `key[]=value` collects an array. */
export function parseFields(pairs: unknown): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const pair of (pairs as string[] | undefined) ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`-f takes key=value, got "${pair}"`);
    const key = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const previous = fields[name];
      fields[name] = [...(Array.isArray(previous) ? previous : previous === undefined ? [] : [previous]), value];
    } else {
      fields[key] = value;
    }
  }
  return fields;
}

async function resolvePath(ctx: Context, raw: string): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw))
    throw new UsageError('give a path under the base URL, not a full URL (the token only goes to the configured server)');
  let path = raw.startsWith('/') ? raw : `/${raw}`;
  if (path.includes('{workspace}')) path = path.split('{workspace}').join(encodeURIComponent(await ctx.workspace()));
  return path;
}

function toQuery(fields: Record<string, string | string[]>): QueryParams {
  const query: QueryParams = {};
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) value.forEach((v, i) => (query[`${key}[${i}]`] = v));
    else query[key] = value;
  }
  return query;
}

export interface ApiRequest {
  method: HttpMethod;
  /** As typed: `{workspace}` is filled in by run. */
  path: string;
  field?: string[];
  input?: string;
}

/** The server's answer, or its refusal (an error status, whose body is printed too, then its exit). */
export type ApiAnswer = { answer: unknown } | { refused: APIStatusError };

export function parse({ args, opts }: CommandLine<typeof API_FLAGS>): ApiRequest {
  const method = args[0].toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${args[0]}": use one of ${METHODS.join(', ')}`);
  return {
    method,
    path: args[1],
    ...(opts.field !== undefined ? { field: opts.field } : {}),
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  };
}

export async function run(ctx: Context, { method, path: raw, field, input }: ApiRequest): Promise<ApiAnswer> {
  const path = await resolvePath(ctx, raw);
  const fields = parseFields(field);

  let json: unknown;
  let query: QueryParams | undefined;
  if (input !== undefined) {
    const text = await readTextInput(ctx, input);
    try {
      json = text.trim() === '' ? undefined : JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--input is not valid JSON: ${(error as Error).message}`);
    }
    query = toQuery(fields);
  } else if (method === 'GET' || method === 'DELETE') {
    query = toQuery(fields);
  } else if (Object.keys(fields).length > 0) {
    json = fields;
  }

  const client = await ctx.client();
  try {
    return { answer: await client.request(method, path, { query, json }) };
  } catch (error) {
    if (error instanceof APIStatusError && error.body !== undefined) return { refused: error };
    throw error;
  }
}

export function render(ctx: Context, result: ApiAnswer): void {
  const print = (body: unknown) => {
    if (typeof body === 'string') ctx.output.text(body + '\n');
    else if (body !== undefined) ctx.output.json(body, true);
  };
  if ('answer' in result) print(result.answer);
  // handleError prints the body itself for -o json/ndjson; it is printed here for the other formats.
  else if (!ctx.output.structured) print(result.refused.body);
}

/** An error status exits as any other failure, once its body is out. */
export function settle(_ctx: Context, result: ApiAnswer): void {
  if ('refused' in result) throw result.refused;
}
