// The transport's limiter for the page engine's requests: the additive-increase /
// multiplicative-decrease window of requests in flight. A 429, or a 503 with Retry-After (seconds
// or an HTTP date), halves the window (once per pause) and holds every new attempt back for as long
// as the server asked; the transport then asks the throttled request again. Each window's worth of
// successes grows the window by one, up to its maximum.
import { APIStatusError, parseRetryAfter, RateLimitError } from './errors.js';
import type { RetryPolicy } from './transport.js';
import { setTimeout as delay } from 'node:timers/promises';

/** Throttled answers one request may meet before its failure stands. */
export const MAX_THROTTLED_ATTEMPTS = 12;
/** The pause after a 429 without a readable Retry-After. */
const DEFAULT_THROTTLE_PAUSE_MS = 1_000;
const MAX_THROTTLE_PAUSE_MS = 60_000;

/** A request under a window: the transport takes its place in `window` and names it `what` in notices (`page 3`). */
export interface Limiter {
  window: RequestWindow;
  what: string;
}

/** How the engine makes a request: under its window (429/503 paced there), cancelled with the walk. */
export interface EngineRequest {
  limiter: Limiter;
  signal: AbortSignal;
  /** A wait's walk: its pages retried until the wait's deadline, as the wait's other requests are. */
  retry?: RetryPolicy;
}

/**
 * The additive-increase / multiplicative-decrease window shared by the requests of one walk or run.
 * At most `size` requests are out at once (a throttled one asked again included); `pausedUntil`
 * holds every new attempt back after a 429.
 */
export class RequestWindow {
  size: number;
  private active = 0;
  private successes = 0;
  private pausedUntil = 0;
  private waiting: Array<() => void> = [];

  constructor(
    readonly max: number,
    private readonly notice: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => delay(ms),
  ) {
    this.size = max;
  }

  /** Waits for a place: the server's pause over, and fewer than `size` requests out. */
  async acquire(): Promise<void> {
    for (;;) {
      const wait = this.pausedUntil - this.now();
      if (wait > 0) await this.sleep(wait);
      else if (this.active < this.size) {
        this.active += 1;
        return;
      } else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  release(): void {
    this.active -= 1;
    this.waiting.shift()?.();
  }

  success(): void {
    this.successes += 1;
    if (this.size < this.max && this.successes >= this.size) {
      this.successes = 0;
      this.size += 1;
      this.notice(`* window ${this.size - 1} -> ${this.size}`);
      this.waiting.shift()?.();
    }
  }

  /**
   * A throttled answer: halve and pause. The answers of the same burst (those that were already
   * out when the first came back) arrive during the pause and change nothing more.
   */
  throttled(status: number, retryAfterMs: number | undefined, what: string): void {
    const now = this.now();
    if (now < this.pausedUntil) return;
    const pause = Math.min(retryAfterMs ?? DEFAULT_THROTTLE_PAUSE_MS, MAX_THROTTLE_PAUSE_MS);
    const before = this.size;
    this.size = Math.max(1, Math.floor(this.size / 2));
    this.successes = 0;
    this.pausedUntil = now + pause;
    this.notice(
      `* ${status} on ${what}: window ${before} -> ${this.size}, waiting ${pause} ms${retryAfterMs === undefined ? '' : ' (Retry-After)'}`,
    );
  }
}

export function throttleOf(error: unknown): { status: number; retryAfterMs?: number } | undefined {
  if (error instanceof RateLimitError) return { status: 429, retryAfterMs: error.retryAfterMs };
  if (error instanceof APIStatusError && error.status === 503) {
    const retryAfterMs = parseRetryAfter(error.headers['retry-after']);
    // A 503 without Retry-After is a server fault, retried by the transport, not a throttle.
    if (retryAfterMs !== undefined) return { status: 503, retryAfterMs };
  }
  return undefined;
}
