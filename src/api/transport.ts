// The one place that talks HTTP: base URL, bearer token, JSON/multipart bodies, timeouts, retries
// with Retry-After and jittered backoff, proxies, and a redacted trace for `--verbose`.
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { MultipartPart } from './request-parts.js';
import type { Dispatcher, FormData } from 'undici';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIStatusError,
  errorFromResponse,
  parseRetryAfter,
} from './errors.js';
import { redactSecret } from './redact.js';
import { sleep } from './sleep.js';
import undiciApi from 'undici/lib/api/index.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

// undici's index loads every dispatcher, mock, fetch, WebSocket and cache module: about 80 ms of
// each command's start-up here (bench/startup.mjs; its public API bundled still costs more than
// these files bundled alone). The transport needs two of them, so it imports those files alone:
// `request` (the API undici's index puts on every Dispatcher) and the proxy-aware agent. They are
// bundled (scripts/build-bundle.mjs), so a new undici that moves them fails the build, not a user;
// src/undici-internals.d.ts gives their types.
/** undici's own FormData (it takes no other), loaded with the first multipart request. */
const undiciFormData = async () => (await import('undici/lib/web/fetch/formdata.js')).default.FormData;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryParams = Record<string, string | number | boolean | undefined | null>;

export interface TransportOptions {
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  maxRetries?: number;
  dispatcher?: Dispatcher;
  userAgent?: string;
  trace?: (line: string) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface RequestOptions {
  method: HttpMethod;
  /** Relative to the base URL, already encoded (see `encodePath`), starting with `/`. */
  path: string;
  query?: QueryParams;
  json?: unknown;
  multipart?: MultipartPart[];
  /** Overrides the method's default: GET, PUT and DELETE are idempotent, POST and PATCH are not. */
  idempotent?: boolean;
  /** False: a 429 or 503 is returned at once, for a caller that paces itself (the page engine). */
  retryThrottled?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** No bearer token, and no retry: a probe of how the server answers a caller without one. */
  anonymous?: boolean;
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;
const TRACE_BODY_LIMIT = 2048;
// undici errors that mean a bug in how we called it, not a network failure: never retry or wrap.
const PROGRAMMING_ERROR_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_INVALID_RETURN_VALUE', 'UND_ERR_NOT_SUPPORTED', 'UND_MOCK_ERR_MOCK_NOT_MATCHED']);
const TIMEOUT_ERROR_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// Field names whose values never reach a trace line (passwords in user updates, issued tokens).
const SECRET_FIELD = /password|token|secret/i;

export class Transport {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly userAgent: string;
  private readonly traceSink: ((line: string) => void) | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly givenDispatcher: Dispatcher | undefined;
  private ownDispatcher: Dispatcher | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token || undefined;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.userAgent = options.userAgent ?? 'wsm';
    this.traceSink = options.trace;
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
    this.givenDispatcher = options.dispatcher;
  }

  async request<T = unknown>(opts: RequestOptions): Promise<T> {
    const url = this.buildUrl(opts.path, opts.query);
    const idempotent = opts.idempotent ?? IDEMPOTENT_METHODS.has(opts.method);
    // Built once, before the first attempt: an unreadable local file is the caller's error, not a
    // network one, and undici re-streams the same FormData on every retry.
    const body = await this.buildBody(opts);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt<T>(opts, url, body);
      } catch (error) {
        const throttled = error instanceof APIStatusError && (error.status === 429 || error.status === 503);
        if (throttled && opts.retryThrottled === false) throw error;
        const retryable = error instanceof APIConnectionError || (error instanceof APIStatusError && RETRYABLE_STATUSES.has(error.status));
        if (!idempotent || !retryable || opts.anonymous || attempt >= this.maxRetries) throw error;
        const delayMs = this.retryDelay(attempt, error);
        this.trace(`* retrying in ${delayMs} ms (retry ${attempt + 1} of ${this.maxRetries})`);
        // A cancelled request (Ctrl-C during a wait) stops retrying at once.
        await this.sleep(delayMs, opts.signal);
      }
    }
  }

  /** A line for the `--verbose` trace from above the transport (the page walk changing course, say). */
  notice(line: string): void {
    this.trace(line);
  }

  /** Closes the proxy-aware agent this transport created (a dispatcher passed in is the caller's). */
  async close(): Promise<void> {
    await this.ownDispatcher?.close();
    this.ownDispatcher = undefined;
  }

  private async attempt<T>(opts: RequestOptions, url: string, body: PreparedBody): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (this.token && !opts.anonymous) headers.authorization = `Bearer ${this.token}`;
    if (body.contentType) headers['content-type'] = body.contentType;
    this.traceRequest(opts.method, url, headers, body.traceText);

    // One timer covers headers and body: undici's own timeouts reset on every chunk received.
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
    const started = performance.now();
    let status: number;
    let statusText: string;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      const target = new URL(url);
      const response = await undiciApi.request.call(this.dispatcher(), {
        origin: target.origin,
        path: target.pathname + target.search,
        method: opts.method,
        headers,
        body: body.payload,
        signal,
      });
      status = response.statusCode;
      statusText = response.statusText || statusCodeText(status);
      responseHeaders = flattenHeaders(response.headers);
      text = await response.body.text();
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? error; // the caller cancelled: not ours to wrap
      const wrapped = this.wrapNetworkError(error, url, timeout.signal.aborted, timeoutMs);
      this.trace(`! ${wrapped.message}`);
      throw wrapped;
    } finally {
      clearTimeout(timer);
    }

    // Built only when tracing: redacting a body re-parses it, which costs as much as the parse itself.
    if (this.traceSink) {
      this.trace(`< ${status} ${statusText} (${Math.round(performance.now() - started)} ms)`);
      for (const [name, value] of Object.entries(responseHeaders)) this.trace(`< ${name}: ${value}`);
      if (text !== '') this.trace(`< ${truncate(redactBodyText(text))}`);
    }

    const parsed = parseBody(text);
    if (status >= 200 && status < 300) return parsed as T;
    const error = errorFromResponse({ status, body: parsed, headers: responseHeaders, method: opts.method, url });
    error.message = this.redact(error.message);
    throw error;
  }

  private wrapNetworkError(error: unknown, url: string, timedOut: boolean, timeoutMs: number): Error {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && PROGRAMMING_ERROR_CODES.has(code)) return error as Error;
    const target = urlWithoutQuery(url);
    if (timedOut || (typeof code === 'string' && TIMEOUT_ERROR_CODES.has(code))) {
      return new APIConnectionTimeoutError(`Request to ${target} timed out after ${timeoutMs} ms.`, { cause: error });
    }
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return new APIConnectionError(this.redact(`Could not reach ${target}: ${reason}.`), { cause: error });
  }

  private retryDelay(attempt: number, error: unknown): number {
    if (error instanceof APIStatusError) {
      const retryAfterMs = parseRetryAfter(error.headers['retry-after']);
      if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
    }
    const backoff = Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    // Jitter keeps many clients that failed together from retrying in lockstep.
    return Math.round(backoff * (1 - 0.25 * this.random()));
  }

  private buildUrl(path: string, query: QueryParams | undefined): string {
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
    return this.baseUrl + path + (pairs.length > 0 ? separator + pairs.join('&') : '');
  }

  private async buildBody(opts: RequestOptions): Promise<PreparedBody> {
    if (opts.multipart) {
      const form = new (await undiciFormData())();
      const described: string[] = [];
      for (const part of opts.multipart) {
        if ('value' in part) {
          form.append(part.name, part.value);
          described.push(`${part.name}=${SECRET_FIELD.test(part.name) ? '***' : part.value}`);
        } else if ('data' in part) {
          form.append(part.name, new Blob([part.data], { type: part.contentType ?? 'application/octet-stream' }), part.filename);
          described.push(`${part.name}=<file ${part.filename}, ${part.data.byteLength} bytes>`);
        } else {
          const blob = await openAsBlob(part.filePath, { type: part.contentType ?? 'application/octet-stream' });
          const filename = part.filename ?? basename(part.filePath);
          form.append(part.name, blob, filename);
          described.push(`${part.name}=<file ${filename}, ${blob.size} bytes>`);
        }
      }
      // No content-type header: undici writes multipart/form-data with its own boundary.
      return { payload: form, traceText: `multipart: ${described.join(', ')}` };
    }
    if (opts.json !== undefined) {
      return {
        payload: JSON.stringify(opts.json),
        contentType: 'application/json',
        traceText: this.traceSink ? JSON.stringify(redactFields(opts.json)) : undefined,
      };
    }
    return { payload: undefined };
  }

  private dispatcher(): Dispatcher {
    // Created on first use so that building a client (e.g. for --help paths) opens nothing.
    return this.givenDispatcher ?? (this.ownDispatcher ??= new EnvHttpProxyAgent());
  }

  private traceRequest(method: string, url: string, headers: Record<string, string>, bodyText: string | undefined): void {
    if (!this.traceSink) return;
    this.trace(`> ${method} ${url}`);
    for (const [name, value] of Object.entries(headers)) {
      this.trace(`> ${name}: ${name === 'authorization' ? 'Bearer ***' : value}`);
    }
    if (bodyText !== undefined) this.trace(`> ${truncate(bodyText)}`);
  }

  private trace(line: string): void {
    this.traceSink?.(this.redact(line));
  }

  /** Last line of defence: whatever the source, the token text never leaves this class. */
  private redact(text: string): string {
    return redactSecret(text, this.token);
  }
}

interface PreparedBody {
  payload: string | FormData | undefined;
  contentType?: string;
  traceText?: string;
}

/** Origin and path of a URL for messages, without the query string. */
function urlWithoutQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // an HTML error page from a proxy, say: keep it for the error message
  }
}

function redactFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, SECRET_FIELD.test(key) ? '***' : redactFields(child)]),
  );
}

function redactBodyText(text: string): string {
  try {
    return JSON.stringify(redactFields(JSON.parse(text)));
  } catch {
    return text;
  }
}

function truncate(text: string): string {
  if (text.length <= TRACE_BODY_LIMIT) return text;
  return `${text.slice(0, TRACE_BODY_LIMIT)}... (${text.length - TRACE_BODY_LIMIT} more characters)`;
}

/**
 * The reason phrase of a status. `node:http` is reached through process.getBuiltinModule: an ESM
 * import of it builds a facade that evaluates every lazy export, Node's bundled undici among them
 * (~20 ms of start-up for one table lookup).
 */
function statusCodeText(status: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? '';
}
