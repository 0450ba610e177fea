import { writeSync } from 'node:fs';

/** Text for an open file, written 64 KiB at a time rather than a system call a record; `end` writes what is left. */
export function batchedWriter(target: number): { write(text: string): void; end(): void } {
  let pending = '';
  return {
    write(text) {
      pending += text;
      if (pending.length < 1 << 16) return;
      writeSync(target, pending);
      pending = '';
    },
    end() {
      writeSync(target, pending);
      pending = '';
    },
  };
}
