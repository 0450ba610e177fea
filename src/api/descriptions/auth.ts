// Tokens and the calling user: extensions of the embedded server (decisions.md §7).
import * as s from '../schemas/auth.js';
import { CATALOG } from './catalog.js';
import { describe, sends } from './types.js';

export const auth = describe(
  'auth',
  CATALOG.auth,
  { record: s.meRecord },
  {
    createToken: {
      method: 'POST',
      path: '/auth/tokens',
      access: 'public',
      published: false,
      summary: 'Issue a bearer token',
      description:
        'Exchanges an e-mail and password for a bearer token, which expires at `expires_at` (30 days by default). ' +
        'Attempts are limited per e-mail and per client address: beyond the limit, 429 with `Retry-After` (seconds).',
      ...sends(s.tokenCreateBody, (client, { body, options }) => client.auth.createToken(body, options)),
      response: s.tokenCreatedResponse,
      status: 201,
      errors: [429],
      verb: 'auth login',
      // Only the client says a server lacks an operation: `wsm auth login` prints this as it is.
      unsupported: 'logging in with an e-mail and password',
      instead: 'log in with a token: `wsm auth login --with-token`',
    },
    revokeCurrentToken: {
      method: 'DELETE',
      path: '/auth/tokens/current',
      published: false,
      summary: 'Revoke the calling token',
      description: 'The bearer token of this request stops working at once (`wsm auth logout`).',
      response: s.tokenRevokedResponse,
      client: (client, { options }) => client.auth.revokeCurrentToken(options),
      verb: 'auth logout',
      unsupported: 'revoking tokens',
    },
    me: {
      method: 'GET',
      path: '/me',
      published: false,
      summary: 'Get the calling user and its workspaces',
      response: s.meResponse,
      client: (client, { options }) => client.auth.me(options),
      verb: 'workspace list',
      // A backend without it is UnsupportedEndpointError, which `auth status` and `workspace list` take as "no /me".
      unsupported: "naming the token's user (/me)",
    },
  },
);
