// Extensions of the embedded server: who the token belongs to, issuing a token, revoking it.
import { tokenCreateBody, type Created, type Deleted, type Me, type Single, type TokenCreateBody, type TokenCreated } from '../schemas/index.js';
import { checkBody, extension, type ResourceContext } from './base.js';

export class AuthResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /me: UnsupportedEndpointError where the backend lacks it (then a token is checked against a workspace). */
  async me(): Promise<Single<Me>> {
    return extension('naming the token\'s user (/me)', () => this.ctx.transport.request({ method: 'GET', path: '/me' }));
  }

  /** POST /auth/tokens with an e-mail and password: UnsupportedEndpointError where the backend lacks it. */
  async createToken(body: TokenCreateBody): Promise<Created<TokenCreated>> {
    const json = checkBody(tokenCreateBody, body, 'login');
    return extension('logging in with an e-mail and password', () => this.ctx.transport.request({ method: 'POST', path: '/auth/tokens', json }), 'log in with a token: `wsm auth login --with-token`');
  }

  /**
   * DELETE /auth/tokens/current: the token of this client stops working. UnsupportedEndpointError
   * ("this server does not support revoking tokens") where the backend lacks it.
   */
  async revokeCurrentToken(): Promise<Deleted> {
    return extension('revoking tokens', () => this.ctx.transport.request({ method: 'DELETE', path: '/auth/tokens/current' }));
  }
}
