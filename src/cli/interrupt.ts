// Ctrl-C during a wait (`--wait` on an import or a template sync). The work on the server goes
// on whatever the CLI does, so an interrupt must say what keeps running there and how to pick it
// up again, then exit 130 (128 + SIGINT, what shells report) instead of dying silently.
import { InterruptedError } from './errors.js';

/** Where SIGINT comes from: the process, or an emitter in tests. */
export interface SignalSource {
  on(event: 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGINT', listener: () => void): unknown;
}

/**
 * Runs `work` until it settles. A SIGINT meanwhile aborts `signal` (so sleeps and requests stop)
 * and rejects with InterruptedError(`whatKeepsRunning()`), e.g.
 * `import 8 keeps running on the server: \`wsm imports get 8 --wait\``. SIGINT comes from the
 * context's `interrupts` (a `wsm mcp` call's cancellation), else from the process. Start a
 * progress line inside `work`: a Ctrl-C typed as soon as it shows must find the listener.
 */
export async function untilInterrupted<T>(
  { interrupts: source = process }: { interrupts?: SignalSource | undefined },
  work: (signal: AbortSignal) => Promise<T>,
  whatKeepsRunning: () => string,
): Promise<T> {
  const controller = new AbortController();
  let onSignal: () => void = () => {};
  const interrupted = new Promise<never>((_, reject) => {
    onSignal = () => {
      controller.abort();
      reject(new InterruptedError(whatKeepsRunning()));
    };
  });
  source.on('SIGINT', onSignal);
  try {
    const running = work(controller.signal);
    // Once interrupted, the work's own failure (an aborted sleep or request) is of no interest.
    running.catch(() => undefined);
    return await Promise.race([running, interrupted]);
  } finally {
    source.off('SIGINT', onSignal);
  }
}
