// GET /me is an extension of our embedded server; a real backend may lack it (404/405).
import { NotFoundError, UnsupportedEndpointError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';

export interface MeUser {
  id: number | string;
  name: string;
  email: string;
  workspaces: Array<{ id: string; name: string }>;
}

/** The user behind the token, or undefined when the server does not offer /me. Other errors propagate. */
export async function fetchMe(client: WsmClient): Promise<MeUser | undefined> {
  try {
    const { data } = await client.me();
    return data as MeUser;
  } catch (err) {
    if (err instanceof UnsupportedEndpointError || err instanceof NotFoundError) return undefined;
    throw err;
  }
}
