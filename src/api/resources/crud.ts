// The shape shared by groups, fields, labels and roles: a collection under the workspace with
// list / get / create / update (PUT) / delete. Which of those are extensions differs per resource,
// so each names its extension operations and gets the "not supported here" error for them.
import type { z } from 'zod';
import { paginate } from '../pagination.js';
import type { Created, Deleted, Paginated, Single, Updated } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, workspacePath, type PageQuery, type ResourceContext } from './base.js';

export type CrudOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface CrudConfig<C extends z.ZodType, U extends z.ZodType> {
  /** Path segment under the workspace, e.g. `contact-groups`. */
  segment: string;
  /** Singular noun for messages, e.g. `contact group`. */
  noun: string;
  createBody: C;
  updateBody: U;
  /** Operations that are ours, not api.md's (decisions.md §6). */
  extensions: CrudOperation[];
}

const VERBS: Record<CrudOperation, string> = {
  list: 'listing',
  get: 'getting',
  create: 'creating',
  update: 'updating',
  delete: 'deleting',
};

export class CrudResource<T, C extends z.ZodType, U extends z.ZodType> {
  constructor(
    protected readonly ctx: ResourceContext,
    private readonly config: CrudConfig<C, U>,
  ) {}

  protected path(id?: number): string {
    const tail = '/' + this.config.segment + (id === undefined ? '' : encodePath`/${id}`);
    return workspacePath(this.ctx, tail);
  }

  private call<R>(operation: CrudOperation, request: () => Promise<R>): Promise<R> {
    if (!this.config.extensions.includes(operation)) return request();
    const what = operation === 'list' ? `${this.config.noun}s` : `a ${this.config.noun}`;
    return extension(`${VERBS[operation]} ${what}`, request);
  }

  async list(query: PageQuery = {}): Promise<Paginated<T>> {
    return this.call('list', () => this.ctx.transport.request({ method: 'GET', path: this.path(), query: { ...query } }));
  }

  iterate(query: Omit<PageQuery, 'page'> = {}): AsyncGenerator<T> {
    return paginate((page) => this.list({ per_page: 100, ...query, page }));
  }

  async get(id: number): Promise<Single<T>> {
    return this.call('get', () => this.ctx.transport.request({ method: 'GET', path: this.path(id) }));
  }

  async create(body: z.input<C>): Promise<Created<T>> {
    const json = checkBody(this.config.createBody, body, this.config.noun);
    return this.call('create', () => this.ctx.transport.request({ method: 'POST', path: this.path(), json }));
  }

  async update(id: number, body: z.input<U>): Promise<Updated<T>> {
    const json = checkBody(this.config.updateBody, body, this.config.noun);
    return this.call('update', () => this.ctx.transport.request({ method: 'PUT', path: this.path(id), json }));
  }

  async delete(id: number): Promise<Deleted> {
    return this.call('delete', () => this.ctx.transport.request({ method: 'DELETE', path: this.path(id) }));
  }
}
