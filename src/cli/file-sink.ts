// A file written as a command produces it (`contacts export --output-file`): the bytes go to a
// temporary file beside the target, which replaces the target only once the command is done
// (flushed, renamed). A stopped or failed export leaves the old file, or none: never half of one.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileWriteError } from './replace-file.js';

export interface FileSink {
  readonly path: string;
  write(bytes: Uint8Array | string): void;
  /** Flushes and puts the file in place. */
  commit(): void;
  /** Removes what was written; the target is left as it was. */
  abort(): void;
}

export function openFileSink(path: string): FileSink {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', 0o666);
  } catch (error) {
    throw fileWriteError(path, error);
  }
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    path,
    write(bytes) {
      try {
        const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
        for (let at = 0; at < buffer.length; ) at += writeSync(fd!, buffer, at, buffer.length - at);
      } catch (error) {
        throw fileWriteError(path, error);
      }
    },
    commit() {
      try {
        fsyncSync(fd!);
        close();
        renameSync(temporary, path);
      } catch (error) {
        close();
        rmSync(temporary, { force: true });
        throw fileWriteError(path, error);
      }
    },
    abort() {
      close();
      rmSync(temporary, { force: true });
    },
  };
}
