// Bytes appended as they come, outside the JavaScript heap. What the journal follows of a large
// import (each row's values, then the records' JSON lines) is written here as UTF-8 rather than
// kept as strings and objects: a million-row import is followed while the server works, and every
// object kept alive is copied by the garbage collector at each scavenge (docs/benchmarks.md).

/** The first size of a log; it doubles as it fills. */
const FIRST_BYTES = 64 * 1024;

export class ByteLog {
  private bytes: Buffer;
  private size = 0;

  constructor(first = FIRST_BYTES) {
    this.bytes = Buffer.allocUnsafe(first);
  }

  /** How many bytes it holds. */
  get length(): number {
    return this.size;
  }

  /** Appends `text` as UTF-8. */
  append(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    this.reserve(text.length * 3);
    this.size += this.bytes.write(text, this.size, 'utf8');
  }

  /** Appends bytes `start` to `end` of `log`. */
  appendFrom(log: ByteLog, start: number, end: number): void {
    this.reserve(end - start);
    this.size += log.bytes.copy(this.bytes, this.size, start, end);
  }

  /** Bytes `start` to `end`, decoded. */
  text(start: number, end: number): string {
    return this.bytes.toString('utf8', start, end);
  }

  /** What it holds, not copied: valid until the next append or clear. */
  view(): Buffer {
    return this.bytes.subarray(0, this.size);
  }

  clear(): void {
    this.size = 0;
  }

  private reserve(more: number): void {
    if (this.size + more <= this.bytes.length) return;
    const wider = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.size + more));
    this.bytes.copy(wider, 0, 0, this.size);
    this.bytes = wider;
  }
}
