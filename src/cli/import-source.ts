// The one check of what an import names as its file, before anything reads it. An import reads
// its file through before sending it (the encoding, the header, the rows, the plan), then sends
// it: standard input and a pipe can be read only once, and a device is no file, so each is said
// as what it is rather than as the error reading it would give (ENOENT for `-`, EISDIR for a
// pipe). A pipe is never opened here: opening one waits until something writes to it.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { UsageError } from './errors.js';

const SAVE_FIRST = 'the file is read before it is sent; save it to a file first';

/** What `info` is, when it is no file an import can read twice; undefined for a file or a directory. */
function notAFile(info: Stats): string | undefined {
  if (info.isFIFO()) return `it is a pipe, which can be read only once, and ${SAVE_FIRST}`;
  if (info.isSocket()) return `it is a socket, which can be read only once, and ${SAVE_FIRST}`;
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'it is a device, not a file: name a file';
  return undefined;
}

/** Refuses (exit 2, one line) an import's `file` that is standard input, a pipe, a device, or cannot be read. */
export async function assertImportableFile(file: string): Promise<void> {
  // `-` means standard input on wsm's command lines, never a file of that name.
  if (file === '-') throw new UsageError(`cannot import from standard input: ${SAVE_FIRST}`);
  try {
    const info = await stat(file);
    const kind = notAFile(info);
    if (kind !== undefined) throw new UsageError(`cannot import from ${file}: ${kind}`);
    if (info.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    await (await open(file, 'r')).close();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    // One line: a field line under it would only say the same again.
    throw new UsageError(`cannot read ${file} (${reason})`);
  }
}
