// Extensions of the embedded server: who the token belongs to, issuing a token, revoking it.
import { tokenCreateBody, type Created, type Deleted, type Me, type Single, type TokenCreateBody, type TokenCreated } from '../schemas/index.js';
import { checkBody, extension, type ResourceContext } from './base.js';

export class AuthResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /me. Left as a plain NotFoundError on backends without it: callers decide what that means. */
  async me(): Promise<Single<Me>> {
    return this.ctx.transport.request({ method: 'GET', path: '/me' });
  }

  /** POST /auth/tokens with an e-mail and password. */
  async createToken(body: TokenCreateBody): Promise<Created<TokenCreated>> {
    const json = checkBody(tokenCreateBody, body, 'login');
    return this.ctx.transport.request({ method: 'POST', path: '/auth/tokens', json });
  }

  /**
   * DELETE /auth/tokens/current: the token of this client stops working. UnsupportedEndpointError
   * ("this server does not support revoking tokens") where the backend lacks it.
   */
  async revokeCurrentToken(): Promise<Deleted> {
    return extension('revoking tokens', () => this.ctx.transport.request({ method: 'DELETE', path: '/auth/tokens/current' }));
  }
}
