// Checking a token, and the base URL it goes to, before they are trusted. GET /me where the server
// has it (our extension: it names the user and the token's workspaces); on a server without it,
// GET /workspaces/{workspace}, an operation of the published API. A rejected token stays a 401
// (exit 3). A 404 there may mean the base URL is not the API's: the caller's check
// (base-url-check.ts) asks the server, says so, and names the URL that answers (exit 4, as any
// command meeting that 404). Callers save nothing before this returns.
import { NotFoundError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import { isRouteMissing } from '../../api/resources/base.js';
import { CliError, ExitCode, UsageError } from '../../cli/errors.js';
import { fetchMe, type MeUser } from './me.js';

export interface Verified {
  /** The token's user, when the server has /me. */
  user?: MeUser;
  /** How the token was checked. */
  by: 'me' | 'workspace';
}

/**
 * Asked once a check met a 404: the error saying the base URL does not answer like the API
 * (base-url-check.ts), or undefined when it does and the 404 means what it says.
 */
export type WrongBaseCheck = () => Promise<CliError | undefined>;

export async function verifyToken(
  client: WsmClient,
  workspace: string | undefined,
  baseUrl: string,
  wrongBase: WrongBaseCheck,
): Promise<Verified> {
  const user = await fetchMe(client);
  if (user !== undefined) return { user, by: 'me' };
  if (workspace === undefined) {
    // Without a workspace, /me was the only probe: a base URL that is not the API's also lacks it.
    const wrong = await wrongBase();
    if (wrong) throw wrong;
    throw new UsageError('this server has no /me, so the token can only be checked against a workspace: pass -w <workspace uuid>');
  }
  await checkWorkspace(client, workspace, baseUrl, wrongBase);
  return { by: 'workspace' };
}

/**
 * GET /workspaces/{workspace} with `client`, which must be bound to `workspace` (named in messages):
 * exit 4 when the token does not reach it, when the route itself is missing, or when the base URL
 * is not the API's at all (said first: it explains the rest).
 */
export async function checkWorkspace(client: WsmClient, workspace: string, baseUrl: string, wrongBase: WrongBaseCheck): Promise<void> {
  try {
    await client.workspaces.get();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const wrong = await wrongBase();
    if (wrong) throw wrong;
    if (isRouteMissing(error)) {
      throw new CliError(
        `no API answered at ${baseUrl}: GET /workspaces/{workspace}, an operation every server has, is not a route there (404): check the base URL`,
        ExitCode.notFound,
      );
    }
    throw new CliError(`workspace ${workspace} is not found with this token (404 on GET /workspaces/${workspace})`, ExitCode.notFound);
  }
}

/** The user column: the name and e-mail from /me, or how the token was checked. */
export function describeVerified(verified: Verified): string {
  if (verified.user) return `${verified.user.name} <${verified.user.email}>`;
  return 'not named by this server (no /me); token accepted for the workspace';
}
