// A loop over rows already in memory (a sheet's) runs on microtasks alone, even as `for await`: no
// timer, socket event or signal is seen until it ends. Over a large sheet that is a minute in which
// Ctrl-C waits and a kept-alive connection the server closed meanwhile still looks open, so the
// upload after it is written into a dead socket (EPIPE). Such loops give the event loop a turn
// every ROWS_PER_TURN rows: a few thousand rows cost milliseconds, a turn microseconds.
import { setImmediate } from 'node:timers/promises';

const ROWS_PER_TURN = 4096;

/** A turn of the event loop after every ROWS_PER_TURN-th row counted (`count` from 1); nothing otherwise. */
export function turnAfter(count: number): Promise<void> | undefined {
  return count % ROWS_PER_TURN === 0 ? setImmediate() : undefined;
}

/** `items` in batches of ROWS_PER_TURN, with a turn of the event loop between batches. */
export async function* inTurns<T>(items: readonly T[]): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += ROWS_PER_TURN) {
    if (start > 0) await setImmediate();
    yield items.slice(start, start + ROWS_PER_TURN);
  }
}
