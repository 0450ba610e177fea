// Extensions of the embedded server: who the token belongs to, issuing a token, revoking it.
import type { Created, Deleted, Me, Single, TokenCreateBody, TokenCreated } from '../schemas/index.js';
import { callOperation, describedOperation, checkBody, type CallOptions, type ResourceContext } from './base.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('auth', name);

export class AuthResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** GET /me: UnsupportedEndpointError where the backend lacks it (then a token is checked against a workspace). */
  async me(options?: CallOptions): Promise<Single<Me>> {
    return callOperation(this.ctx, await operation('me'), {}, options);
  }

  /** POST /auth/tokens with an e-mail and password: UnsupportedEndpointError where the backend lacks it. */
  async createToken(body: TokenCreateBody, options?: CallOptions): Promise<Created<TokenCreated>> {
    const login = await operation('createToken');
    const json = checkBody(login.body!, body, 'login');
    return callOperation(this.ctx, login, { json }, options);
  }

  /**
   * DELETE /auth/tokens/current: the token of this client stops working. UnsupportedEndpointError
   * ("this server does not support revoking tokens") where the backend lacks it.
   */
  async revokeCurrentToken(options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await operation('revokeCurrentToken'), {}, options);
  }
}
