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
  for (;;) {
    if (settled(value)) return { value, settled: true };
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return { value, settled: false };
    await sleep(Math.min(options.intervalMs, remaining), undefined, { signal: options.signal });
    value = await read();
  }
}
