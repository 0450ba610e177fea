// Users: list, get and create (extensions), update as the multipart form api.md defines.
import { written, type Written } from '../answers.js';
import { DESCRIPTIONS } from '../descriptions/index.js';
import { walkPages, walkRows } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import type { Single, User, UserCreateBody, UserUpdateBody } from '../schemas/index.js';
import { callOperation, checkBody, fileRef, getPage, multipart, requireOne, walkOptions, type CallOptions, type PagedCallOptions, type PageQuery, type ResourceContext, type WalkQuery, type WalkSettings } from './base.js';

const { operations } = DESCRIPTIONS.users;

export class UsersResource {
  constructor(private readonly ctx: ResourceContext) {}

  async list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): Promise<ListPage<User>> {
    return getPage<User>(this.ctx, operations.list, query, 'listing users', options);
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<User> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  pages(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<User>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one user. */
  async get(id: number | string, options?: CallOptions): Promise<Single<User>> {
    return requireOne<User>(await callOperation(this.ctx, operations.get, { id }, options), 'user', id);
  }

  /** Extension: POST a new user with a role in this workspace. */
  async create(body: UserCreateBody, options?: CallOptions): Promise<Written<User>> {
    const json = checkBody(operations.create.body!, body, 'user');
    return written<User>(await callOperation(this.ctx, operations.create, { json }, options));
  }

  /** Always multipart (api.md), with the avatar as a file part when given. */
  async update(id: number | string, body: UserUpdateBody, files: { avatar?: string } = {}, options?: CallOptions): Promise<Written<User>> {
    const value = checkBody(operations.update.body!, body, 'user') as Record<string, unknown>;
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    // Setting the same fields again gives the same user: safe to retry.
    return written<User>(await callOperation(this.ctx, operations.update, { id, multipart: multipart(form), idempotent: true }, options));
  }
}
