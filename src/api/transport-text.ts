// What the transport does with text: the request's URL, a network failure named, answers parsed
// leniently, headers flattened, and the `--verbose` trace's redaction (secret fields masked, long
// bodies cut).
import { APIConnectionError, APIConnectionTimeoutError } from './errors.js';
import type { QueryParams } from './transport.js';

// undici errors that mean a bug in how we called it, not a network failure: never retry or wrap.
const PROGRAMMING_ERROR_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_INVALID_RETURN_VALUE',
  'UND_ERR_NOT_SUPPORTED',
  'UND_MOCK_ERR_MOCK_NOT_MATCHED',
]);
const TIMEOUT_ERROR_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

// Field names whose values never reach a trace line (passwords in user updates, issued tokens).
export const SECRET_FIELD = /password|token|secret/i;
const TRACE_BODY_LIMIT = 2048;

/** The request's URL: the base URL, the path (never absolute) and the query, booleans as 1/0. */
export function buildUrl(baseUrl: string, path: string, query: QueryParams | undefined): string {
  // Only relative paths: an absolute URL here would carry the bearer token to another host.
  if (!path.startsWith('/') || path.startsWith('//')) throw new TypeError(`API path must start with a single "/": ${path}`);
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    // Booleans as 1/0: Laravel-style "boolean" validation rejects the strings "true"/"false".
    const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  const separator = path.includes('?') ? '&' : '?';
  return baseUrl + path + (pairs.length > 0 ? separator + pairs.join('&') : '');
}

/** Origin and path of a URL for messages, without the query string. */
function urlWithoutQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // an HTML error page from a proxy, say: keep it for the error message
  }
}

export function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, SECRET_FIELD.test(key) ? '***' : redactFields(child)]));
}

export function redactBodyText(text: string): string {
  try {
    return JSON.stringify(redactFields(JSON.parse(text)));
  } catch {
    return text;
  }
}

export function truncate(text: string): string {
  if (text.length <= TRACE_BODY_LIMIT) return text;
  return `${text.slice(0, TRACE_BODY_LIMIT)}... (${text.length - TRACE_BODY_LIMIT} more characters)`;
}

/**
 * The reason phrase of a status. `node:http` is reached through process.getBuiltinModule: an ESM
 * import of it builds a facade that evaluates every lazy export, Node's bundled undici among them
 * (~20 ms of start-up for one table lookup).
 */
export function statusCodeText(status: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? '';
}

/** A failure without an answer as the client's error: a timeout, or no connection (the token redacted). */
export function networkError(error: unknown, url: string, timedOut: boolean, timeoutMs: number, redact: (text: string) => string): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && PROGRAMMING_ERROR_CODES.has(code)) return error as Error;
  const target = urlWithoutQuery(url);
  if (timedOut || (typeof code === 'string' && TIMEOUT_ERROR_CODES.has(code))) {
    return new APIConnectionTimeoutError(`Request to ${target} timed out after ${timeoutMs} ms.`, { cause: error });
  }
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return new APIConnectionError(redact(`Could not reach ${target}: ${reason}.`), { cause: error });
}
