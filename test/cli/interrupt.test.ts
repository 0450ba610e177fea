// The interrupt-aware wait: Ctrl-C says what keeps running on the server and exits 130.
// The real binary with a real SIGINT: test/e2e/operator-waits.test.ts.
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { untilInterrupted, type SignalSource } from '../../src/cli/interrupt.js';

describe('untilInterrupted', () => {
  it('returns what the work returns and removes its SIGINT listener', async () => {
    const source = new EventEmitter() as EventEmitter & SignalSource;
    expect(
      await untilInterrupted(
        { interrupts: source },
        async () => 42,
        () => 'x',
      ),
    ).toBe(42);
    expect(source.listenerCount('SIGINT')).toBe(0);
  });

  it('a SIGINT aborts the work and rejects with the caller’s words', async () => {
    const source = new EventEmitter() as EventEmitter & SignalSource;
    let aborted = false;
    const waiting = untilInterrupted(
      { interrupts: source },
      async (signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        await sleep(60_000, undefined, { signal });
      },
      () => 'import 8 keeps running on the server: wsm imports get 8 --wait',
    );
    source.emit('SIGINT');
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(130);
    expect((error as Error).message).toBe('import 8 keeps running on the server: wsm imports get 8 --wait');
    expect(aborted).toBe(true);
    expect(source.listenerCount('SIGINT')).toBe(0);
  });
});
