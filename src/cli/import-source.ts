// The one check of what a command names as a file to read and then send (an import's CSV or
// sheet, an avatar, a template's media), before anything reads it. Such a file is read before it
// is sent (an import's encoding, header, rows and plan; an upload's size): standard input and a
// pipe can be read only once, and a device is no file, so each is said as what it is rather than
// as the error reading it would give (ENOENT for `-`, EISDIR for a pipe). A pipe is never opened
// here: opening one waits until something writes to it.
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { cannotRead, UsageError } from './errors.js';

const SAVE_FIRST = 'the file is read before it is sent; save it to a file first';

/** What `info` is, when it is no file an import can read twice; undefined for a file or a directory. */
function notAFile(info: Stats): string | undefined {
  if (info.isFIFO()) return `it is a pipe, which can be read only once, and ${SAVE_FIRST}`;
  if (info.isSocket()) return `it is a socket, which can be read only once, and ${SAVE_FIRST}`;
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'it is a device, not a file: name a file';
  return undefined;
}

/**
 * The size of `file` once it is known to be a regular file that can be opened; refuses (exit 2, one
 * line, `after` ending a line that says it cannot be read) standard input, a pipe, a device, a
 * directory or a file that cannot be read, as `what` (`import`, `upload`) says.
 */
export async function readableFileSize(file: string, what: string, after = ''): Promise<number> {
  // `-` means standard input on wsm's command lines, never a file of that name.
  if (file === '-') throw new UsageError(`cannot ${what} from standard input: ${SAVE_FIRST}`);
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    throw cannotRead(file, error, after);
  }
  const kind = notAFile(info);
  if (kind !== undefined) throw new UsageError(`cannot ${what} from ${file}: ${kind}`);
  if (info.isDirectory()) throw new UsageError(`cannot read ${file} (EISDIR)${after}`);
  try {
    await (await open(file, 'r')).close();
  } catch (error) {
    throw cannotRead(file, error, after);
  }
  return info.size;
}

/** Refuses (exit 2, one line) an import's `file` that is standard input, a pipe, a device, or cannot be read. */
export async function assertImportableFile(file: string): Promise<void> {
  await readableFileSize(file, 'import');
}
