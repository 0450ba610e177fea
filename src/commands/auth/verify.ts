// Checking a token before it is trusted. GET /me where the server has it (our extension: it names
// the user and the token's workspaces); on a server without it, GET /workspaces/{workspace}, an
// operation of the published API. A rejected token stays a 401 (exit 3); callers save nothing
// before this returns.
import { NotFoundError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import { CliError, ExitCode, UsageError } from '../../cli/errors.js';
import { fetchMe, type MeUser } from './me.js';

export interface Verified {
  /** The token's user, when the server has /me. */
  user?: MeUser;
  /** How the token was checked. */
  by: 'me' | 'workspace';
}

export async function verifyToken(client: WsmClient, workspace: string | undefined): Promise<Verified> {
  const user = await fetchMe(client);
  if (user !== undefined) return { user, by: 'me' };
  if (workspace === undefined) {
    throw new UsageError('this server has no /me, so the token can only be checked against a workspace: pass -w <workspace uuid>');
  }
  try {
    await client.workspaces.get();
  } catch (error) {
    if (error instanceof NotFoundError) throw new CliError(`workspace ${workspace} is not found with this token (404 on GET /workspaces/${workspace})`, ExitCode.notFound);
    throw error;
  }
  return { by: 'workspace' };
}

/** The user column: the name and e-mail from /me, or how the token was checked. */
export function describeVerified(verified: Verified): string {
  if (verified.user) return `${verified.user.name} <${verified.user.email}>`;
  return 'not named by this server (no /me); token accepted for the workspace';
}
