// What a wait (`--wait` with its `--timeout`) does while the server stops answering: its requests
// are retried until the timeout (the transport's RetryPolicy), and each retry is said on stderr,
// so 30 minutes of CI are never 30 silent minutes. On a terminal every retry is said; piped (a CI
// log), at most one line every 30 s. A wait that runs out of time while retrying fails with both
// the timeout and the cause: `gave up after 10s: cannot reach …` (exit 6).
import type { RetryPolicy } from '../api/transport.js';
import type { Context } from './context.js';
import { durationText } from './duration.js';
import { sentenceIn } from './error-report.js';
import { CliError, ExitCode, exitCodeFor, WaitGaveUpError } from './errors.js';

/** Piped, a retry is said at most this often. */
const PIPED_RETRY_LINE_EVERY_MS = 30_000;

export interface WaitRetries {
  /** The policy for every request of the wait. */
  retry: RetryPolicy;
  /** The error to report for a failure of the wait: a transient one at the deadline said as giving up. */
  gaveUp(error: unknown): unknown;
}

/**
 * A line for each retry, or (not on a terminal) for the first retry and then at most one every
 * `everyMs`: `write` gets the lines to print.
 */
export function retryLines(
  write: (line: string) => void,
  options: { terminal: boolean; now: () => number; everyMs?: number },
): (line: string) => void {
  const everyMs = options.everyMs ?? PIPED_RETRY_LINE_EVERY_MS;
  let last: number | undefined;
  return (line) => {
    const now = options.now();
    if (!options.terminal && last !== undefined && now - last < everyMs) return;
    last = now;
    write(line);
  };
}

/** The retries of a wait for `what` (`template 4's review`, `import 8`) that gives up after `timeoutMs`. */
export function waitRetries(ctx: Context, timeoutMs: number, what: string): WaitRetries {
  const now = () => ctx.now().getTime();
  const until = now() + timeoutMs;
  const say = retryLines((line) => ctx.output.notice(line), { terminal: ctx.io.isStderrTTY, now });
  return {
    retry: {
      until,
      onRetry: (error, delayMs) => {
        const left = Math.max(0, until - now() - delayMs);
        say(
          `waiting for ${what}: ${sentenceIn(ctx, error)}; trying again in ${durationText(roundedSeconds(delayMs))} (gives up in ${durationText(roundedSeconds(left))})`,
        );
      },
    },
    gaveUp: (error) =>
      now() >= until && exitCodeFor(error) === ExitCode.unavailable && !(error instanceof CliError)
        ? new WaitGaveUpError(timeoutMs, error)
        : error,
  };
}

/** A pause said to the second (`2s`, not `1.873s`); under a second, to the tenth (`0.4s`). */
function roundedSeconds(ms: number): number {
  return ms < 1000 ? Math.round(ms / 100) * 100 : Math.round(ms / 1000) * 1000;
}
