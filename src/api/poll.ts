// The one poll loop of the client, behind every wait (`imports.waitUntilDone`,
// `templates.waitUntilDecided`): read, and read again every `intervalMs`, until the answer
// settles or the deadline passes. Failures a later attempt may not meet are the transport's to
// retry (a request's `retry` policy); `signal` ends a pause at once (Ctrl-C during a wait).
import { setTimeout as sleep } from 'node:timers/promises';

export interface PollOptions {
  intervalMs: number;
  /** When to stop asking (epoch ms): the last answer is returned unsettled. */
  deadline: number;
  signal?: AbortSignal;
  /** Pauses double from FIRST_PAUSE_MS up to `intervalMs`: for reads that cost the server little (an import's record). */
  quickFirst?: boolean;
}

interface Polled<T> {
  value: T;
  settled: boolean;
}

/** Polls `read` until `settled(value)`; `first` is an answer already in hand (read first otherwise). */
export async function poll<T>(
  read: () => Promise<T>,
  settled: (value: T) => boolean,
  options: PollOptions,
  first?: { value: T },
): Promise<Polled<T>> {
  let value = first === undefined ? await read() : first.value;
  let pause = options.quickFirst ? FIRST_PAUSE_MS : undefined;
  for (;;) {
    if (settled(value)) return { value, settled: true };
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return { value, settled: false };
    await sleep(Math.min(pause ?? options.intervalMs, options.intervalMs, remaining), undefined, { signal: options.signal });
    if (pause !== undefined) pause *= 2;
    value = await read();
  }
}

/**
 * The first pause of a `quickFirst` poll: the pauses double from it up to `intervalMs`, so a short
 * import is seen finished within a fraction of the interval, and a long one costs four reads more.
 */
const FIRST_PAUSE_MS = 100;
