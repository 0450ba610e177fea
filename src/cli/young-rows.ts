// A command that reads a large file row by row makes millions of objects that die at once. V8
// notes where each object literal is allocated and, when a scavenge finds nearly all of one
// place's recent objects still alive (a chunk's rows are made together, then checked one by one),
// allocates every later object of that place in the old generation ("pretenuring"). There each
// stays until a full collection and keeps what it points to (its cells, its parsed values) alive
// through every scavenge: checking a million-row import then took 4 to 5 s of CPU instead of 2.5,
// most of it the collector's, depending on when the first scavenges fell (docs/benchmarks.md).
// V8 reads the flag at each such decision, so setting it at run time applies.
import { setFlagsFromString } from 'node:v8';

/** Keeps a row's short-lived objects in the young generation, where they cost nothing once dead. */
export function keepRowsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
