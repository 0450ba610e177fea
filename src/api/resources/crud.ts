// The shape shared by groups, fields, labels and roles: a collection under the workspace with
// list / get / create / update (PUT) / delete. Which of those are extensions differs per resource,
// so each names its extension operations and gets the "not supported here" error for them.
import type { z } from 'zod';
import { requireRecord, written, type Written } from '../answers.js';
import { walkPages, walkRows, type EngineRequest } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import type { Deleted, Single } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { UnsupportedEndpointError } from '../errors.js';
import { checkBody, extension, getPage, walkOptions, workspacePath, type WalkSettings, type PageQuery, type ResourceContext, type WalkQuery } from './base.js';

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
  /** What to do instead when an extension operation is missing, by operation. */
  instead?: Partial<Record<CrudOperation, string>>;
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

  protected path(id?: number | string): string {
    const tail = '/' + this.config.segment + (id === undefined ? '' : encodePath`/${id}`);
    return workspacePath(this.ctx, tail);
  }

  /** `updating a role`, as "this server does not support …" names it. */
  operationName(operation: CrudOperation): string {
    return `${VERBS[operation]} ${operation === 'list' ? `${this.config.noun}s` : `a ${this.config.noun}`}`;
  }

  /** Whether `operation` is ours, not api.md's: a server may lack it. */
  isExtension(operation: CrudOperation): boolean {
    return this.config.extensions.includes(operation);
  }

  /**
   * Whether the server has this resource's extensions, asked without changing anything: an
   * extension read (one record by `id`, or the list) that is no route there means it has none of
   * them (decisions.md §6 adds them together). Undefined when there is no such read or it failed
   * otherwise: the operation itself will tell.
   */
  async hasExtensions(id?: number | string): Promise<boolean | undefined> {
    const read = this.isExtension('get') && id !== undefined ? () => this.get(id) : this.isExtension('list') ? () => this.list({ per_page: 1 }) : undefined;
    if (read === undefined) return undefined;
    try {
      await read();
      return true;
    } catch (error) {
      return error instanceof UnsupportedEndpointError ? false : undefined;
    }
  }

  private call<R>(operation: CrudOperation, request: () => Promise<R>): Promise<R> {
    if (!this.isExtension(operation)) return request();
    return extension(this.operationName(operation), request, this.config.instead?.[operation]);
  }

  async list(query: PageQuery | PageParams = {}, request?: EngineRequest): Promise<ListPage<T>> {
    return this.call('list', () => getPage<T>(this.ctx, this.path(), { ...query }, `listing ${this.config.noun}s`, request));
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<T> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  pages(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<T>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  async get(id: number | string): Promise<Single<T>> {
    const body = await this.call('get', () => this.ctx.transport.request({ method: 'GET', path: this.path(id) }));
    return { data: requireRecord<T>(body, `getting ${this.config.noun} ${id}`) };
  }

  async create(body: z.input<C>): Promise<Written<T>> {
    const json = checkBody(this.config.createBody, body, this.config.noun);
    return written<T>(await this.call('create', () => this.ctx.transport.request({ method: 'POST', path: this.path(), json })));
  }

  async update(id: number | string, body: z.input<U>): Promise<Written<T>> {
    const json = checkBody(this.config.updateBody, body, this.config.noun);
    return written<T>(await this.call('update', () => this.ctx.transport.request({ method: 'PUT', path: this.path(id), json })));
  }

  async delete(id: number | string): Promise<Deleted> {
    return this.call('delete', () => this.ctx.transport.request({ method: 'DELETE', path: this.path(id) }));
  }
}
