import { writeSync } from 'node:fs';

/** A copy past its bound: writing stopped there, so a file far over the server's limit costs no more than the limit on disk. */
export class CopyOverLimit extends Error {
  constructor(readonly bytes: number) {
    super(`the copy passed ${bytes} bytes`);
  }
}

/** Text handed to `emit` about 64 KiB at a time rather than a piece each, never as one string of the whole; `end` hands over what is left. */
export function batched(emit: (text: string) => void): { write(text: string): void; end(): void } {
  let pending = '';
  const flush = () => {
    const text = pending;
    pending = '';
    emit(text);
  };
  return {
    write(text) {
      pending += text;
      if (pending.length >= 1 << 16) flush();
    },
    end: flush,
  };
}

/**
 * Text for an open file, written 64 KiB at a time rather than a system call a record; `end` writes
 * what is left. Past `maxBytes` (when given) it throws CopyOverLimit rather than write on.
 */
export function batchedWriter(target: number, maxBytes = Number.POSITIVE_INFINITY): { write(text: string): void; end(): void } {
  let written = 0;
  return batched((text) => {
    written += writeSync(target, text);
    if (written > maxBytes) throw new CopyOverLimit(written);
  });
}
