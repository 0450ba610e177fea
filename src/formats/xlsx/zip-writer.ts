// A ZIP archive written as it is produced (the container of an .xlsx): each entry deflated on
// the way out, its CRC and sizes in a data descriptor after it, the central directory at the end.
// Nothing of an entry is kept but its name and sizes, so a sheet of a million rows needs no more
// memory than one page of them. ZIP64 is not written: an entry past 4 GiB is refused.
import { constants, crc32, createDeflateRaw } from 'node:zlib';

/** Where the archive's bytes go; `write` resolves once the sink can take more (back-pressure). */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

const LIMIT = 0xffffffff;
/** 2026-01-01 00:00 in DOS time: a fixed stamp, so the same export makes the same bytes. */
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;
/** Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8. */
const FLAGS = 0x0008 | 0x0800;

export class ZipWriter {
  private readonly entries: Written[] = [];
  private offset = 0;

  constructor(private readonly sink: ByteSink) {}

  private async put(bytes: Uint8Array): Promise<void> {
    this.offset += bytes.length;
    await this.sink.write(bytes);
  }

  /** Adds an entry whose text comes in parts (each part is deflated as it comes). */
  async add(name: string, parts: Iterable<string> | AsyncIterable<string>): Promise<void> {
    const entry: Written = { name: Buffer.from(name, 'utf8'), crc: 0, compressed: 0, size: 0, offset: this.offset };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt16LE(entry.name.length, 26);
    await this.put(header);
    await this.put(entry.name);

    const deflate = createDeflateRaw({ level: constants.Z_DEFAULT_COMPRESSION });
    const out: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    const flushOut = async () => {
      for (const chunk of out.splice(0)) {
        entry.compressed += chunk.length;
        await this.put(chunk);
      }
    };
    for await (const part of parts) {
      const bytes = Buffer.from(part, 'utf8');
      entry.crc = crc32(bytes, entry.crc);
      entry.size += bytes.length;
      if (entry.size > LIMIT) throw new Error(`${name} is larger than 4 GiB, more than a spreadsheet file can hold`);
      // A flush per part hands its compressed bytes over now: memory stays one part's worth.
      await new Promise<void>((resolve, reject) => {
        deflate.write(bytes, (error) => (error ? reject(error) : resolve()));
      });
      await flushOut();
    }
    // 'end' comes once the last compressed bytes were given to 'data'.
    await new Promise<void>((resolve, reject) => {
      deflate.once('error', reject);
      deflate.once('end', resolve);
      deflate.end();
    });
    await flushOut();

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.put(descriptor);
    this.entries.push(entry);
  }

  /** Writes the central directory: the archive is complete. */
  async finish(): Promise<void> {
    const start = this.offset;
    if (start > LIMIT) throw new Error('the file would be larger than 4 GiB, more than a spreadsheet file can hold');
    for (const entry of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(FLAGS, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(DOS_TIME, 12);
      record.writeUInt16LE(DOS_DATE, 14);
      record.writeUInt32LE(entry.crc >>> 0, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt32LE(entry.offset, 42);
      await this.put(record);
      await this.put(entry.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
  }
}
