// The one poll loop behind every wait: an import's wait reads again after pauses that double from
// 0.1 s up to --interval, so a small import is seen finished well inside the interval.
import { describe, expect, it } from 'vitest';
import { poll } from '../../src/api/poll.js';

/** A read that settles on its `settlesOn`-th call, counting the calls. */
function reads(settlesOn: number) {
  let calls = 0;
  return {
    read: async () => ++calls,
    settled: (n: number) => n >= settlesOn,
    get calls() {
      return calls;
    },
  };
}

describe('poll', () => {
  it('quickFirst: pauses of 0.1s, 0.2s, 0.4s reach the fourth read long before an interval of a minute', async () => {
    const counter = reads(4);
    const result = await poll(counter.read, counter.settled, { intervalMs: 60_000, deadline: Date.now() + 20_000, quickFirst: true });
    expect(result).toEqual({ value: 4, settled: true });
  });

  it('without quickFirst every pause is the interval: the deadline comes first and the last answer is unsettled', async () => {
    const counter = reads(4);
    const result = await poll(counter.read, counter.settled, { intervalMs: 60_000, deadline: Date.now() + 300 });
    expect(result).toEqual({ value: 2, settled: false });
  });

  it('the pauses never pass the interval: with a 10 ms interval, ten reads fit where doubling pauses would allow five', async () => {
    const counter = reads(10);
    const result = await poll(counter.read, counter.settled, { intervalMs: 10, deadline: Date.now() + 2_000, quickFirst: true });
    expect(result).toEqual({ value: 10, settled: true });
  });
});
