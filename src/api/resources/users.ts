// Users: list, get and create (extensions), update as the multipart form the published API defines.
import { written, type Written } from '../answers.js';
import type { PageParams } from '../pagination.js';
import type { Single, User, UserCreateBody, UserUpdateBody } from '../schemas/index.js';
import {
  callOperation,
  describedOperation,
  checkBody,
  fileRef,
  multipart,
  requireOne,
  type CallOptions,
  type PagedCallOptions,
  type PageQuery,
  type ResourceContext,
} from './base.js';
import { describedList, type PageList } from './page-list.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('users', name);

export class UsersResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** A page when awaited; every user when iterated (page-list.ts). */
  list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): PageList<User> {
    return describedList<User>(this.ctx, 'users', 'listing users', query, options);
  }

  /** Extension: GET one user. */
  async get(id: number | string, options?: CallOptions): Promise<Single<User>> {
    return requireOne<User>(await callOperation(this.ctx, await operation('get'), { id }, options), 'user', id);
  }

  /** Extension: POST a new user with a role in this workspace. */
  async create(body: UserCreateBody, options?: CallOptions): Promise<Written<User>> {
    const create = await operation('create');
    const json = checkBody(create.body!, body, 'user');
    return written<User>(await callOperation(this.ctx, create, { json }, options));
  }

  /** Always multipart (the published API), with the avatar as a file part when given. */
  async update(id: number | string, body: UserUpdateBody, files: { avatar?: string } = {}, options?: CallOptions): Promise<Written<User>> {
    const update = await operation('update');
    const value = checkBody(update.body!, body, 'user') as Record<string, unknown>;
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    // Setting the same fields again gives the same user: safe to retry.
    return written<User>(await callOperation(this.ctx, update, { id, multipart: multipart(form), idempotent: true }, options));
  }
}
