// A temporary file only this process can reach and nothing can leave behind: on Linux it is
// unlinked the moment it is open, so no other process can find it and no exit (an error, Ctrl-C,
// a kill, a crash) leaves it on disk; it is read through /proc/self/fd. Where there is no
// /proc/self/fd, it is a file in a folder of its own (mode 600), removed when done and at exit.
import { closeSync, existsSync, mkdtempSync, openSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateFile {
  /** Where the file is read from (by path, as often as needed). */
  path: string;
  /** Open for writing. */
  fd: number;
  /** Closes it (and removes it, where it has a name). */
  done(): void;
}

export function privateFile(name: string): PrivateFile {
  const dir = mkdtempSync(join(tmpdir(), 'wsm-'));
  const file = join(dir, name);
  const fd = openSync(file, 'wx+', 0o600);
  if (existsSync(`/proc/self/fd/${fd}`)) {
    unlinkSync(file);
    rmdirSync(dir);
    return { path: `/proc/self/fd/${fd}`, fd, done: () => closeSync(fd) };
  }
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    path: file,
    fd,
    done() {
      closeSync(fd);
      remove();
      process.off('exit', remove);
    },
  };
}
