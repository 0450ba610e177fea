// Extensions of the embedded server: who the token belongs to, and issuing a token.
import { tokenCreateBody, type Created, type Me, type Single, type TokenCreateBody } from '../schemas/index.js';
import { checkBody, type ResourceContext } from './base.js';

export class AuthResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /me. Left as a plain NotFoundError on backends without it: callers decide what that means. */
  async me(): Promise<Single<Me>> {
    return this.ctx.transport.request({ method: 'GET', path: '/me' });
  }

  /** POST /auth/tokens with an e-mail and password. */
  async createToken(body: TokenCreateBody): Promise<Created<{ token: string; user_id: number }>> {
    const json = checkBody(tokenCreateBody, body, 'login');
    return this.ctx.transport.request({ method: 'POST', path: '/auth/tokens', json });
  }
}
