// `wsm api <METHOD> <path> [-f key=value]... [--input file|-]`: prints the server's JSON answer.
// On an error status the body is printed too (stdout), so scripts can read it, and the exit code
// follows the usual table.
import { APIStatusError } from '../../api/errors.js';
import type { HttpMethod, QueryParams } from '../../api/transport.js';
import { UsageError } from '../../cli/errors.js';
import type { Context } from '../../cli/context.js';
import type { api } from '../api.js';
import { readTextInput, typedRun, type VerbRun } from '../shared/verb.js';

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
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) throw new UsageError('give a path under the base URL, not a full URL (the token only goes to the configured server)');
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

export const run: VerbRun = typedRun<typeof api>(async (ctx, { args, opts }) => {
  const method = args[0].toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method "${args[0]}": use one of ${METHODS.join(', ')}`);
  const path = await resolvePath(ctx, args[1]);
  const fields = parseFields(opts.field);
  const input = opts.input;

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
    const answer = await client.request(method, path, { query, json });
    if (typeof answer === 'string') ctx.output.text(answer + '\n');
    else if (answer !== undefined) ctx.output.json(answer, true);
  } catch (error) {
    // handleError prints the body itself for -o json/ndjson; print it here for the other formats.
    if (error instanceof APIStatusError && error.body !== undefined && !ctx.output.structured) {
      if (typeof error.body === 'string') ctx.output.text(error.body + '\n');
      else ctx.output.json(error.body, true);
    }
    throw error;
  }
});
