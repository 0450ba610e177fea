// A wait that says it is alive (docs/output.md "Waits"). A review takes minutes and a CI system may
// stop a job that prints nothing for ten: piped, every wait prints at least one line every 30 s,
// `waiting for 2 templates: 1 PENDING, 1 APPROVED; 3m10s of 30m`. On a terminal the wait's progress
// line is the live line instead; in `wsm mcp` the same sentence is the progress notification's.
import type { Context } from './context.js';
import { badDuration, durationText, parseDuration } from './duration.js';

/** Piped, a wait's line comes this often; WSM_HEARTBEAT_INTERVAL sets it (for tests). */
const EVERY_MS = 30_000;

export interface Heartbeat {
  /** What the last read found, in words (`1 PENDING, 1 APPROVED`); the next line says it. */
  state(text: string): void;
  /** The wait is over: no more lines. */
  stop(): void;
}

/** How often the line comes: WSM_HEARTBEAT_INTERVAL (a duration, for tests), else every 30 s. */
export function heartbeatEveryMs(env: Record<string, string | undefined>): number {
  const text = env.WSM_HEARTBEAT_INTERVAL;
  if (text === undefined || text.trim() === '') return EVERY_MS;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw badDuration('WSM_HEARTBEAT_INTERVAL', text);
  return ms;
}

/** `45s`, `3m10s`, `1h2m`: how long a wait has run, to the second. */
export function elapsedText(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 === 0 ? '' : `${s % 60}s`}`;
  const m = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)}h${m === 0 ? '' : `${m}m`}`;
}

/** The heartbeat of a wait for `what` (`2 templates`, `import 8`) that may last `timeoutMs`. */
export function waitHeartbeat(ctx: Context, what: string, timeoutMs: number): Heartbeat {
  const started = ctx.now().getTime();
  let found = '';
  const line = () =>
    `waiting for ${what}${found === '' ? '' : `: ${found}`}; ${elapsedText(ctx.now().getTime() - started)} of ${durationText(timeoutMs)}`;
  const told = ctx.io.heartbeat;
  if (told !== undefined) {
    // wsm mcp: each read's sentence becomes the call's progress message; the server keeps it alive.
    return {
      state(text) {
        found = text;
        told(line());
      },
      stop() {},
    };
  }
  // A terminal has its live line, the wait's progress.
  if (ctx.io.isStderrTTY) return { state() {}, stop() {} };
  const timer = setInterval(() => ctx.output.notice(line()), heartbeatEveryMs(ctx.env));
  // The wait's own timers keep the process alive, never this one.
  timer.unref();
  return {
    state(text) {
      found = text;
    },
    stop: () => clearInterval(timer),
  };
}

/** `1 PENDING, 1 APPROVED`: how many of each status, in the order first seen. */
export function statusCounts(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}
