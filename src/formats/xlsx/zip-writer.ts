// A ZIP archive written as it is produced (the container of an .xlsx), with yazl: each entry
// deflated on the way out, its CRC and sizes in a data descriptor after it, the central directory
// at the end (ZIP64 where an entry needs it). Nothing of an entry is kept but its name and sizes,
// and yazl reads an entry's text only as fast as the sink takes the archive (back-pressure), so a
// sheet of a million rows needs no more memory than one page of them.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type * as Yazl from 'yazl';

// yazl computes each entry's CRC-32 with buffer-crc32, in JavaScript: ten times slower than
// node:zlib's (0.8 s of every 100 MB of sheet). Both are loaded from node_modules (not bundled), so
// that yazl's own copy of buffer-crc32 can be pointed at zlib.crc32, which gives the same numbers.
const requireYazl = createRequire(import.meta.url);
const yazlPath = requireYazl.resolve('yazl');
const crcOfYazl = createRequire(yazlPath)('buffer-crc32') as { unsigned(data: Buffer, previous?: number): number };
crcOfYazl.unsigned = (data, previous = 0) => crc32(data, previous);
const { ZipFile } = requireYazl(yazlPath) as typeof Yazl;

/** Where the archive's bytes go; `write` resolves once the sink can take more (back-pressure). */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
}

/** 2026-01-01 00:00 as a DOS time, no extended timestamp: the same export makes the same bytes. */
const STAMP = { mtime: new Date(2026, 0, 1), forceDosTimestamp: true };

export class ZipWriter {
  private readonly zip: Yazl.ZipFile = new ZipFile();
  private readonly written: Promise<void>;

  constructor(sink: ByteSink) {
    const failed = new Promise<never>((_, reject) => this.zip.once('error', reject));
    const pumped = (async () => {
      for await (const chunk of this.zip.outputStream) await sink.write(chunk as Buffer);
    })();
    this.written = Promise.race([pumped, failed]);
    // Whichever settles second is nobody's concern: the race above reports the first.
    failed.catch(() => {});
    pumped.catch(() => {});
  }

  /** Adds an entry whose text comes in parts; it is read and deflated as the archive is written. */
  add(name: string, parts: Iterable<string> | AsyncIterable<string>): void {
    const bytes = Readable.from(
      (async function* () {
        for await (const part of parts) yield Buffer.from(part, 'utf8');
      })(),
      { objectMode: false },
    );
    this.zip.addReadStream(bytes, name, { ...STAMP, compress: true });
  }

  /** Ends the archive and waits until the sink has taken all of it; an entry's error is thrown here. */
  async finish(): Promise<void> {
    this.zip.end();
    await this.written;
  }
}
