// Reads the entries of a ZIP archive (an .xlsx or .ods) by its central directory, each one
// inflated as it is read: a worksheet is never whole in memory. Stored and deflated entries are
// read; anything else (ZIP64, encryption, another method) is refused with the reason.
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';

export class ZipError extends Error {}

interface Entry {
  method: number;
  compressed: number;
  size: number;
  offset: number;
  flags: number;
}

/** The end record is in the last 22 bytes, before a comment of up to 64 KiB. */
const TAIL = 22 + 0xffff;
const CHUNK = 256 * 1024;

export interface ZipArchive {
  names(): string[];
  has(name: string): boolean;
  /** The entry's bytes, inflated, a chunk at a time. */
  chunks(name: string): AsyncGenerator<Buffer>;
  /** A small entry whole, as UTF-8 text (workbook parts other than sheets). */
  text(name: string): Promise<string>;
  close(): Promise<void>;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

export async function openZip(path: string): Promise<ZipArchive> {
  const handle = await open(path, 'r');
  try {
    const entries = await centralDirectory(handle);
    return archive(handle, entries);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function centralDirectory(handle: FileHandle): Promise<Map<string, Entry>> {
  const { size } = await handle.stat();
  const start = Math.max(0, size - TAIL);
  const tail = await readAt(handle, start, size - start);
  let end = -1;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tail.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipError('it is not a ZIP archive (an .xlsx file is one)');
  const count = tail.readUInt16LE(end + 10);
  const length = tail.readUInt32LE(end + 12);
  const offset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff)
    throw new ZipError('it is a ZIP64 archive, which wsm does not read (save it again as .xlsx)');
  const directory = await readAt(handle, offset, length);
  const entries = new Map<string, Entry>();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw new ZipError('its ZIP directory is damaged');
    const flags = directory.readUInt16LE(at + 8);
    const method = directory.readUInt16LE(at + 10);
    const compressed = directory.readUInt32LE(at + 20);
    const entrySize = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    const extra = directory.readUInt16LE(at + 30);
    const comment = directory.readUInt16LE(at + 32);
    const local = directory.readUInt32LE(at + 42);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name.replace(/^\//, ''), { method, compressed, size: entrySize, offset: local, flags });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

function archive(handle: FileHandle, entries: Map<string, Entry>): ZipArchive {
  async function* raw(entry: Entry): AsyncGenerator<Buffer> {
    const local = await readAt(handle, entry.offset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw new ZipError('an entry of its ZIP archive is damaged');
    let position = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    let left = entry.compressed;
    while (left > 0) {
      const chunk = await readAt(handle, position, Math.min(CHUNK, left));
      if (chunk.length === 0) throw new ZipError('it ends before its last entry does (is it whole?)');
      position += chunk.length;
      left -= chunk.length;
      yield chunk;
    }
  }
  async function* chunks(name: string): AsyncGenerator<Buffer> {
    const entry = entries.get(name);
    if (entry === undefined) throw new ZipError(`it has no ${name}`);
    if (entry.flags & 0x0001) throw new ZipError('it is encrypted (save it without a password)');
    if (entry.method === 0) {
      yield* raw(entry);
      return;
    }
    if (entry.method !== 8) throw new ZipError(`its ${name} is compressed in a way wsm does not read (method ${entry.method})`);
    const inflate = createInflateRaw();
    const feeding = (async () => {
      try {
        for await (const chunk of raw(entry)) {
          if (inflate.destroyed) return; // the reader stopped early
          if (!inflate.write(chunk)) {
            await new Promise<void>((resolve) => {
              const done = () => {
                inflate.off('drain', done);
                inflate.off('close', done);
                resolve();
              };
              inflate.on('drain', done);
              inflate.on('close', done);
            });
          }
        }
        if (!inflate.destroyed) inflate.end();
      } catch (error) {
        inflate.destroy(error as Error);
      }
    })();
    try {
      for await (const chunk of inflate) yield chunk as Buffer;
    } catch (error) {
      if (error instanceof ZipError) throw error;
      throw new ZipError(`its ${name} cannot be inflated (${(error as Error).message})`);
    } finally {
      inflate.destroy();
      await feeding;
    }
  }
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    chunks,
    async text(name) {
      const parts: Buffer[] = [];
      for await (const chunk of chunks(name)) parts.push(chunk);
      return Buffer.concat(parts).toString('utf8');
    },
    close: () => handle.close(),
  };
}
