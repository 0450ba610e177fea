// Users: list, get and create (extensions), update as the multipart form api.md defines.
import { written, type Written } from '../answers.js';
import { walkRows, type EngineRequest } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import { userCreateBody, userUpdateBody, type Single, type User, type UserCreateBody, type UserUpdateBody } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, fileRef, getOneExtension, getPage, multipart, walkOptions, workspacePath, type WalkSettings, type PageQuery, type ResourceContext, type WalkQuery } from './base.js';

export class UsersResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(id?: number | string): string {
    return workspacePath(this.ctx, id === undefined ? '/users' : encodePath`/users/${id}`);
  }

  async list(query: PageQuery | PageParams = {}, request?: EngineRequest): Promise<ListPage<User>> {
    return getPage<User>(this.ctx, this.path(), { ...query }, 'listing users', request);
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<User> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one user. */
  async get(id: number | string): Promise<Single<User>> {
    return getOneExtension<User>(this.ctx, this.path(id), 'user', id, 'find it in `wsm users list`');
  }

  /** Extension: POST a new user with a role in this workspace. */
  async create(body: UserCreateBody): Promise<Written<User>> {
    const json = checkBody(userCreateBody, body, 'user');
    return written<User>(await extension('creating users', () => this.ctx.transport.request({ method: 'POST', path: this.path(), json })));
  }

  /** Always multipart (api.md), with the avatar as a file part when given. */
  async update(id: number | string, body: UserUpdateBody, files: { avatar?: string } = {}): Promise<Written<User>> {
    const value = checkBody(userUpdateBody, body, 'user');
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    // Setting the same fields again gives the same user: safe to retry.
    return written<User>(await this.ctx.transport.request({ method: 'POST', path: this.path(id), multipart: multipart(form), idempotent: true }));
  }
}
