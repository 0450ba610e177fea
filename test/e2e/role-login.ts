/**
 * Dee, a user of `wsm serve` whose role holds only the permissions a test names, logged in as the
 * profile `dee` beside the owner's `local` (one config folder: one journal for both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { createUserArgs, localProfile } from './processes.js';

/** Makes the role `role` with `permissions` and Dee with it, logs Dee in; the environment of a command run as Dee. */
export async function loginWithRole(
  server: { env: NodeJS.ProcessEnv; dir: string },
  role: string,
  permissions: string[],
): Promise<NodeJS.ProcessEnv> {
  const owner = { ...server.env, WSM_PROFILE: 'local' };
  const made = await wsmInProcess(owner, ['roles', 'create', role, ...permissions.flatMap((name) => ['--permission', name]), '-q']);
  expect(made.code, made.stderr).toBe(0);
  expect((await wsmInProcess(owner, createUserArgs(made.stdout.trim()))).code).toBe(0);
  const baseUrl = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).profiles.local.base_url;
  const login = await wsmInProcess(
    owner,
    ['auth', 'login', '--profile', 'dee', '--email', 'dee@example.com', '--password-stdin', '--base-url', baseUrl],
    'long password\n',
  );
  expect(login.code, login.stderr).toBe(0);
  return { ...server.env, WSM_PROFILE: 'dee', WSM_WORKSPACE: localProfile(server).workspace };
}
