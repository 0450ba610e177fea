// The JSON lines of a change's records, handed to it in batches (store.ts addLines: a gzip member
// each) from pieces that are mostly views of bytes written before (import-outcome.ts): a run of
// records is not copied until its batch is packed.
import type { ChangeWriter } from './store.js';

/** A batch is handed over once it holds this many bytes. */
export const BATCH_BYTES = 16 * 1024 * 1024;

export class LineBatches {
  private pieces: Uint8Array[] = [];
  private bytes = 0;
  private count = 0;

  constructor(private readonly change: ChangeWriter) {}

  /** `lines`: `count` whole record lines, each ending in a newline. */
  push(lines: Uint8Array, count: number): void {
    this.pieces.push(lines);
    this.bytes += lines.length;
    this.count += count;
    if (this.bytes >= BATCH_BYTES) this.flush(false);
  }

  /** One record's line. */
  pushLine(line: string): void {
    this.push(Buffer.from(line), 1);
  }

  /** The last batch; `more`: records past the most a change keeps were left out. */
  end(more: boolean): void {
    this.flush(more);
  }

  private flush(more: boolean): void {
    this.change.addLines(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces), this.count, more);
    this.pieces = [];
    this.bytes = 0;
    this.count = 0;
  }
}
