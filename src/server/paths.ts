import { homedir, platform } from 'node:os';
import { join } from 'node:path';

/** The user's data directory for wsm (WSM_DATA_DIR overrides), following each platform's convention. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WSM_DATA_DIR) return env.WSM_DATA_DIR;
  if (platform() === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'wsm');
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Application Support', 'wsm');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'wsm');
}
