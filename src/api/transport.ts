// The one place that talks HTTP: base URL, bearer token, JSON/multipart bodies, timeouts, retries
// with Retry-After and jittered backoff, proxies, and a redacted trace for `--verbose`.
import { setTimeout as delay } from 'node:timers/promises';
import type { MultipartPart } from './request-parts.js';
import type { Dispatcher } from 'undici';
import { encodeMultipart, type MultipartBody } from './multipart.js';
import { APIConnectionError, APIStatusError, errorFromResponse, parseRetryAfter } from './errors.js';
import { redactSecret } from './redact.js';
import { MAX_THROTTLED_ATTEMPTS, throttleOf, type Limiter } from './request-window.js';
import {
  buildUrl,
  flattenHeaders,
  networkError,
  parseBody,
  redactBodyText,
  redactFields,
  statusCodeText,
  truncate,
} from './transport-text.js';
import undiciApi from 'undici/lib/api/index.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

// undici's index loads every dispatcher, mock, fetch, WebSocket and cache module: about 80 ms of
// each command's start-up here (bench/startup.mjs; its public API bundled still costs more than
// these files bundled alone). The transport needs two of them, so it imports those files alone:
// `request` (the API undici's index puts on every Dispatcher) and the proxy-aware agent. They are
// bundled (scripts/build-bundle.mjs), so a new undici that moves them fails the build, not a user;
// src/undici-internals.d.ts gives their types.

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
  /** The page engine's window: the request waits for a place in it, and a 429/503 is paced there. */
  limiter?: Limiter;
  /** A wait's request: retried until the wait's deadline (instead of the method's rule and maxRetries). */
  retry?: RetryPolicy;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** How a wait's request is retried: until its deadline rather than a number of times. */
export interface RetryPolicy {
  /**
   * Until this time (epoch ms) a failure a later attempt may not meet (any 5xx, 408, 429, no
   * connection) is retried, whatever the method: a wait only reads, or asks a sync that is
   * harmless to ask twice.
   */
  until: number;
  /** Told before each pause: the failure and how long until the next attempt. */
  onRetry?: (error: Error, delayMs: number) => void;
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;

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
  private createdDispatcher: Dispatcher | undefined;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token || undefined;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.userAgent = options.userAgent ?? 'wsm';
    this.traceSink = options.trace;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.random = options.random ?? Math.random;
    this.givenDispatcher = options.dispatcher;
  }

  async request<T = unknown>(opts: RequestOptions): Promise<T> {
    const url = buildUrl(this.baseUrl, opts.path, opts.query);
    const idempotent = opts.idempotent ?? IDEMPOTENT_METHODS.has(opts.method);
    // Built once, before the first attempt: an unreadable local file is the caller's error, not a
    // network one; every retry streams the same multipart body again from its start.
    const body = await this.buildBody(opts);
    for (let attempt = 0, throttles = 0; ; attempt++) {
      try {
        return await this.limited<T>(opts, url, body);
      } catch (error) {
        // Under a window a throttled answer is the window's to pace (it paused and shrank): ask again.
        if (opts.limiter && throttleOf(error) && ++throttles < MAX_THROTTLED_ATTEMPTS && !opts.signal?.aborted) {
          attempt -= 1;
          continue;
        }
        const delayMs = this.nextRetry(opts, idempotent, attempt, error);
        if (delayMs === undefined) throw error;
        this.trace(`* retrying in ${delayMs} ms (retry ${attempt + 1}${opts.retry ? '' : ` of ${this.maxRetries}`})`);
        opts.retry?.onRetry?.(error as Error, delayMs);
        // A cancelled request (Ctrl-C during a wait) stops retrying at once, failing with the caller's reason.
        await this.sleep(delayMs, opts.signal).catch((pauseError: unknown) => {
          throw opts.signal?.reason ?? pauseError;
        });
      }
    }
  }

  /** Closes the proxy-aware agent this transport created (a dispatcher passed in is the caller's). */
  async close(): Promise<void> {
    await this.createdDispatcher?.close();
    this.createdDispatcher = undefined;
  }

  /** The pause before the next attempt, or undefined when the failure stands. */
  private nextRetry(opts: RequestOptions, idempotent: boolean, attempt: number, error: unknown): number | undefined {
    const status = error instanceof APIStatusError ? error.status : undefined;
    if (opts.retry === undefined) {
      const retryable = error instanceof APIConnectionError || (status !== undefined && RETRYABLE_STATUSES.has(status));
      return idempotent && retryable && attempt < this.maxRetries ? this.retryDelay(attempt, error) : undefined;
    }
    const transient = error instanceof APIConnectionError || (status !== undefined && (status >= 500 || RETRYABLE_STATUSES.has(status)));
    const remaining = opts.retry.until - Date.now();
    return transient && remaining > 0 ? Math.min(this.retryDelay(attempt, error), remaining) : undefined;
  }

  /** One attempt, holding a place in the caller's window (the page engine's) while it is out. */
  private async limited<T>(opts: RequestOptions, url: string, body: PreparedBody): Promise<T> {
    const limiter = opts.limiter;
    if (limiter === undefined) return this.attempt<T>(opts, url, body);
    await limiter.window.acquire();
    try {
      const result = await this.attempt<T>(opts, url, body);
      limiter.window.success();
      return result;
    } catch (error) {
      const throttle = throttleOf(error);
      if (throttle) limiter.window.throttled(throttle.status, throttle.retryAfterMs, limiter.what);
      throw error;
    } finally {
      limiter.window.release();
    }
  }

  private async attempt<T>(opts: RequestOptions, url: string, body: PreparedBody): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body.contentType) headers['content-type'] = body.contentType;
    if (typeof body.payload === 'object') headers['content-length'] = String(body.payload.length);
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
        body: typeof body.payload === 'object' ? body.payload.body() : body.payload,
        signal,
      });
      status = response.statusCode;
      statusText = response.statusText || statusCodeText(status);
      responseHeaders = flattenHeaders(response.headers);
      text = await response.body.text();
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? error; // the caller cancelled: not ours to wrap
      const wrapped = networkError(error, url, timeout.signal.aborted, timeoutMs, (text) => this.redact(text));
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

  private retryDelay(attempt: number, error: unknown): number {
    if (error instanceof APIStatusError) {
      const retryAfterMs = parseRetryAfter(error.headers['retry-after']);
      if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
    }
    const backoff = Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    // Jitter keeps many clients that failed together from retrying in lockstep.
    return Math.round(backoff * (1 - 0.25 * this.random()));
  }

  private async buildBody(opts: RequestOptions): Promise<PreparedBody> {
    if (opts.multipart) {
      const form = await encodeMultipart(opts.multipart);
      return { payload: form, contentType: form.contentType, traceText: form.traceText };
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
    return this.givenDispatcher ?? (this.createdDispatcher ??= new EnvHttpProxyAgent());
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
  payload: string | MultipartBody | undefined;
  contentType?: string;
  traceText?: string;
}
