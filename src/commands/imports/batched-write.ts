import { writeSync } from 'node:fs';
import { batched } from '../../cli/batched-text.js';

/** A copy past its bound: writing stopped there, so a file far over the server's limit costs no more than the limit on disk. */
export class CopyOverLimit extends Error {
  constructor(readonly bytes: number) {
    super(`the copy passed ${bytes} bytes`);
  }
}

/**
 * Text for an open file, written 64 KiB at a time rather than a system call a record; `end` writes
 * what is left. Past `maxBytes` (when given) it throws CopyOverLimit rather than write on.
 */
export function batchedWriter(target: number, maxBytes = Number.POSITIVE_INFINITY): { write(text: string): boolean; end(): void } {
  let written = 0;
  return batched((text) => {
    written += writeSync(target, text);
    if (written > maxBytes) throw new CopyOverLimit(written);
  });
}
