// Extensions of the embedded server: who the token belongs to, issuing a token, revoking it.
import { DESCRIPTIONS } from '../descriptions/index.js';
import type { Created, Deleted, Me, Single, TokenCreateBody, TokenCreated } from '../schemas/index.js';
import { callOperation, checkBody, type CallOptions, type ResourceContext } from './base.js';

const { operations } = DESCRIPTIONS.auth;

export class AuthResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /me. Left as a plain NotFoundError on backends without it: callers decide what that means. */
  async me(options?: CallOptions): Promise<Single<Me>> {
    return callOperation(this.ctx, operations.me, {}, options);
  }

  /** POST /auth/tokens with an e-mail and password. */
  async createToken(body: TokenCreateBody, options?: CallOptions): Promise<Created<TokenCreated>> {
    const json = checkBody(operations.createToken.body!, body, 'login');
    return callOperation(this.ctx, operations.createToken, { json }, options);
  }

  /**
   * DELETE /auth/tokens/current: the token of this client stops working. UnsupportedEndpointError
   * ("this server does not support revoking tokens") where the backend lacks it.
   */
  async revokeCurrentToken(options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, operations.revokeCurrentToken, {}, options);
  }
}
