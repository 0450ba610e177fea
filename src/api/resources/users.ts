// Users: list, get and create (extensions), update as the multipart form api.md defines.
import { paginate } from '../pagination.js';
import {
  userCreateBody,
  userUpdateBody,
  type Created,
  type Paginated,
  type Single,
  type Updated,
  type User,
  type UserCreateBody,
  type UserUpdateBody,
} from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, fileRef, multipart, workspacePath, type PageQuery, type ResourceContext } from './base.js';

export class UsersResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(id?: number): string {
    return workspacePath(this.ctx, id === undefined ? '/users' : encodePath`/users/${id}`);
  }

  async list(query: PageQuery = {}): Promise<Paginated<User>> {
    return this.ctx.transport.request({ method: 'GET', path: this.path(), query: { ...query } });
  }

  iterate(query: Omit<PageQuery, 'page'> = {}): AsyncGenerator<User> {
    return paginate((page) => this.list({ per_page: 100, ...query, page }));
  }

  /** Extension: GET one user. */
  async get(id: number): Promise<Single<User>> {
    return extension('getting one user', () => this.ctx.transport.request({ method: 'GET', path: this.path(id) }));
  }

  /** Extension: POST a new user with a role in this workspace. */
  async create(body: UserCreateBody): Promise<Created<User>> {
    const json = checkBody(userCreateBody, body, 'user');
    return extension('creating users', () => this.ctx.transport.request({ method: 'POST', path: this.path(), json }));
  }

  /** Always multipart (api.md), with the avatar as a file part when given. */
  async update(id: number, body: UserUpdateBody, files: { avatar?: string } = {}): Promise<Updated<User>> {
    const value = checkBody(userUpdateBody, body, 'user');
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    // Setting the same fields again gives the same user: safe to retry.
    return this.ctx.transport.request({ method: 'POST', path: this.path(id), multipart: multipart(form), idempotent: true });
  }
}
