// What the transport does with text: the request's URL, answers parsed leniently, headers
// flattened, and the `--verbose` trace's redaction (secret fields masked, long bodies cut).
import type { QueryParams } from './transport.js';

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
export function urlWithoutQuery(url: string): string {
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
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, SECRET_FIELD.test(key) ? '***' : redactFields(child)]),
  );
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
