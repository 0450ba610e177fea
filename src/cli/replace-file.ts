// The one way the CLI writes a file whole (config.json, `wsm pull -f`, apply's state file): the
// text goes to a temporary file beside the target, is flushed to the disk (fsync), then renamed
// over the target, and the folder's entry is flushed too. A crash or a power cut leaves the old
// file or the new one, never half of one or an empty one.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError, ExitCode } from './errors.js';

/**
 * Replaces `path` with `text` atomically; `mode` is the new file's from its first byte (0600 for
 * a file holding tokens). Throws the file system's own error: the caller names the file.
 */
export function writeFileAtomically(path: string, text: string, mode = 0o666): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', mode);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** The rename itself lasts only once the folder is flushed; Windows cannot open a folder for that, and loses nothing by it. */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems (network mounts) refuse fsync on a folder: the file itself is flushed.
  } finally {
    closeSync(fd);
  }
}

/** Why a file of the user's cannot be written, in their words; exit 1. */
export function fileWriteError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a folder'
          : (code ?? (error as Error).message);
  return new CliError(`cannot write ${path} (${why})`, ExitCode.failure);
}

/** A file written for the user (`wsm pull -f`, the state file): a failure names the user's file, exit 1. */
export async function replaceFile(path: string, text: string): Promise<void> {
  try {
    writeFileAtomically(path, text);
  } catch (error) {
    throw fileWriteError(path, error);
  }
}
