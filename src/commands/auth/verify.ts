// Checking a token, and the base URL it goes to, before they are trusted. GET /me where the server
// has it (our extension: it names the user and the token's workspaces); on a server without it,
// GET /workspaces/{workspace}, an operation of the published API. A rejected token stays a 401
// (exit 3). A 404 from no such route (not the API's own 404 body) means the base URL is not the
// API's: most often it lacks `/api/v3`, which the message says (exit 4, as any command meeting
// that 404). Callers save nothing before this returns.
import { NotFoundError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import { isRouteMissing } from '../../api/resources/base.js';
import { baseUrlHint, CliError, ExitCode, UsageError } from '../../cli/errors.js';
import { fetchMe, type MeUser } from './me.js';

export interface Verified {
  /** The token's user, when the server has /me. */
  user?: MeUser;
  /** How the token was checked. */
  by: 'me' | 'workspace';
}

/** `fix`: the command that sets the base URL, for the hint (login: `wsm auth login --base-url`). */
export async function verifyToken(client: WsmClient, workspace: string | undefined, baseUrl: string, fix?: string): Promise<Verified> {
  const user = await fetchMe(client);
  if (user !== undefined) return { user, by: 'me' };
  const hint = baseUrlHint(baseUrl, fix);
  if (workspace === undefined) {
    // Without a workspace, /me was the only probe: under a base URL lacking its suffix that is the likely reason it is missing.
    if (hint !== '') throw new CliError(`no API answered at ${baseUrl} (404 on GET /me)${hint}`, ExitCode.notFound);
    throw new UsageError('this server has no /me, so the token can only be checked against a workspace: pass -w <workspace uuid>');
  }
  await checkWorkspace(client, workspace, baseUrl, hint);
  return { by: 'workspace' };
}

/**
 * GET /workspaces/{workspace} with `client`, which must be bound to `workspace` (named in messages):
 * exit 4 when the token does not reach it, or when the route itself is missing.
 */
export async function checkWorkspace(client: WsmClient, workspace: string, baseUrl: string, hint = baseUrlHint(baseUrl)): Promise<void> {
  try {
    await client.workspaces.get();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    // Under a base URL without its suffix every path is a 404, whatever the body says: the hint comes first.
    if (isRouteMissing(error) && hint === '') {
      throw new CliError(`no API answered at ${baseUrl}: GET /workspaces/{workspace}, an operation every server has, is not a route there (404): check the base URL`, ExitCode.notFound);
    }
    throw new CliError(`workspace ${workspace} is not found with this token (404 on GET /workspaces/${workspace})${hint}`, ExitCode.notFound);
  }
}

/** The user column: the name and e-mail from /me, or how the token was checked. */
export function describeVerified(verified: Verified): string {
  if (verified.user) return `${verified.user.name} <${verified.user.email}>`;
  return 'not named by this server (no /me); token accepted for the workspace';
}
