// `--rejects` never replaces the input: the target is compared with the file being imported by
// identity, however either is named (`same/people.csv` through a link to `.`, `/proc/self/cwd/…`,
// a hard link, `People.csv` on a case-insensitive disk), before anything of the input is read.
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '../../cli/errors.js';

/** The file a path names: its device and inode when it exists; otherwise its real folder and name. */
async function identity(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    // Not there yet: it is no file being imported (that one exists), but its real path still is compared.
    return undefined;
  }
}

/** The real path of `path`, its folder's where the file is not there yet (the name as given). */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch {
    try {
      return resolve(await realpath(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/**
 * Refuses (exit 2) a rejects target that is the input itself: the same device and inode when both
 * exist (which also catches a case-insensitive disk's other spelling and a hard link), else the
 * same real path.
 */
export async function refuseRejectsOverInput(rejects: string, input: string): Promise<void> {
  const [target, source] = await Promise.all([identity(rejects), identity(input)]);
  const same = target !== undefined && source !== undefined ? target === source : (await realPathOf(rejects)) === (await realPathOf(input));
  if (same) throw new UsageError(`--rejects ${rejects} is the file being imported (${input}): name another file; nothing was read or sent`);
}
