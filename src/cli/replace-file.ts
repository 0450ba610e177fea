// Files the CLI writes for the user (`wsm pull -f`, apply's state file) are replaced whole: the
// text goes to a temporary file beside the target, renamed over it, so an interrupted write never
// leaves half a file. A failure names the user's file, never the temporary one.
import { rename, rm, writeFile } from 'node:fs/promises';
import { CliError, ExitCode } from './errors.js';

export async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (code ?? (error as Error).message);
    throw new CliError(`cannot write ${path} (${why})`, ExitCode.failure);
  }
}
