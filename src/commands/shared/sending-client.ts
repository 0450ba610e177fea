// The client of a command that sends a body it made from its flags: the client's check of that body
// needs no server, so it is the error reported even when the login or the workspace is missing too.
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import { workspaceClient } from './verb.js';

/** Stands in for the workspace of a client that sends nothing: no path it makes is requested. */
const UNSENT_WORKSPACE = '00000000-0000-0000-0000-000000000000';

/**
 * The client to send a body through (`account` for a call outside any workspace). When the settings
 * lack a login or a workspace, it is still a client whose every request fails with that problem: the
 * body is checked first, as the client checks it before sending, and a good body meets the problem.
 */
export async function sendingClient(ctx: Context, scope: 'workspace' | 'account' = 'workspace'): Promise<WsmClient> {
  const connecting = scope === 'workspace' ? workspaceClient(ctx) : ctx.client();
  const problem = await connecting.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (problem === undefined) return connecting;
  const [{ WsmClient }, { Transport }] = await Promise.all([import('../../api/client.js'), import('../../api/transport.js')]);
  class Refusing extends Transport {
    override request<T>(): Promise<T> {
      return Promise.reject(problem);
    }
  }
  return new WsmClient(new Refusing({ baseUrl: 'http://wsm.invalid' }), UNSENT_WORKSPACE);
}
