// Reads the parts of a ZIP archive (an .xlsx) with yauzl, each one inflated as it is read: a
// worksheet is never whole in memory. yauzl reads the central directory entry by entry (a directory
// claiming 4 GB is read no further than its entries go), checks every offset against the file and
// each part's inflated length against its directory entry; the CRC-32 is checked here, and so are
// the bounds of limits.ts (parts, bytes per part, inflation ratio) before a byte is inflated.
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { type Entry, openPromise, type ZipFile } from 'yauzl';
import { INFLATION_RATIO, PART_BYTES, RATIO_FREE_BYTES, SMALL_PART_BYTES, ZIP_ENTRIES } from './limits.js';

/** What is wrong with the archive, in words that follow "the file: ". */
export class ZipError extends Error {}

export interface ZipArchive {
  names(): string[];
  has(name: string): boolean;
  /** The part's bytes, inflated, a chunk at a time; its length and CRC-32 checked at its end. */
  chunks(name: string, limit?: number): AsyncGenerator<Buffer>;
  /** A small part whole, as UTF-8 text. */
  text(name: string): Promise<string>;
  close(): Promise<void>;
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MB`;

/** yauzl's own words for what it found, as the reason a part or the archive cannot be read. */
function zipReason(error: Error): string {
  const message = error.message.replace(/\.$/, '');
  if (/too many bytes|not enough bytes|unexpected EOF|bytes in the stream/i.test(message))
    return `a part is ${/too many/i.test(message) ? 'longer' : 'shorter'} than its ZIP directory says (is the file whole?)`;
  if (/end of central directory record signature not found/i.test(message)) return 'it is not a ZIP archive (an .xlsx file is one)';
  return `its ZIP structure is damaged (${message})`;
}

export async function openZip(path: string): Promise<ZipArchive> {
  let zip: ZipFile;
  try {
    zip = await openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw new ZipError(zipReason(error as Error));
  }
  try {
    if (zip.entryCount > ZIP_ENTRIES)
      throw new ZipError(`its ZIP directory lists ${zip.entryCount.toLocaleString('en-US')} parts; a workbook has far fewer`);
    const entries = new Map<string, Entry>();
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName.replace(/^\/+/, ''), entry);
    return archive(zip, entries);
  } catch (error) {
    zip.close();
    if (error instanceof ZipError) throw error;
    throw new ZipError(zipReason(error as Error));
  }
}

/** Refuses a part whose directory entry claims more than a workbook holds, before inflating any of it. */
function checkBounds(name: string, entry: Entry, limit: number): void {
  if (entry.isEncrypted()) throw new ZipError('it is encrypted (save it without a password)');
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw new ZipError(`its part ${name} is compressed in a way wsm does not read (method ${entry.compressionMethod})`);
  if (entry.uncompressedSize > limit)
    throw new ZipError(`its part ${name} inflates to ${mib(entry.uncompressedSize)}, more than the ${mib(limit)} wsm reads of one part`);
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  if (entry.uncompressedSize > RATIO_FREE_BYTES && ratio > INFLATION_RATIO)
    throw new ZipError(
      `its part ${name} inflates ${Math.round(ratio).toLocaleString('en-US')} times (a ZIP bomb?); a workbook's parts inflate at most ${INFLATION_RATIO} times`,
    );
}

function archive(zip: ZipFile, entries: Map<string, Entry>): ZipArchive {
  async function* inflated(name: string, limit: number): AsyncGenerator<Buffer> {
    const entry = entries.get(name);
    if (entry === undefined) throw new ZipError(`it has no part ${name}`);
    checkBounds(name, entry, limit);
    let stream: Readable;
    try {
      stream = await zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new ZipError(zipReason(error as Error));
    }
    let crc = 0;
    try {
      for await (const chunk of stream) {
        crc = crc32(chunk as Buffer, crc);
        yield chunk as Buffer;
      }
    } catch (error) {
      if (error instanceof ZipError) throw error;
      throw new ZipError(
        /incorrect header|invalid|unexpected end/i.test((error as Error).message)
          ? `its part ${name} cannot be inflated (${(error as Error).message})`
          : zipReason(error as Error),
      );
    } finally {
      stream.destroy();
    }
    if (crc >>> 0 !== entry.crc32 >>> 0) throw new ZipError(`its part ${name} is damaged (its CRC-32 does not match its ZIP directory)`);
  }
  return {
    has: (name) => entries.has(name),
    names: () => [...entries.keys()],
    chunks: (name, limit = PART_BYTES) => inflated(name, limit),
    async text(name) {
      const parts: Buffer[] = [];
      for await (const chunk of inflated(name, SMALL_PART_BYTES)) parts.push(chunk);
      return Buffer.concat(parts).toString('utf8');
    },
    close: async () => zip.close(),
  };
}
