// The shape shared by groups, fields, labels and roles: a collection under the workspace with
// list / get / create / update (PUT) / delete, each operation as its resource's description says
// (path, body schema, whether it is an extension and what to do instead where it is missing).
import type { z } from 'zod';
import { written, type Written } from '../answers.js';
import type { CrudName as CrudOperation } from '../descriptions/crud.js';
import type { OperationDescription, ResourceDescription } from '../descriptions/index.js';
import { walkPages, walkRows } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import type { Deleted, Single } from '../schemas/index.js';
import { UnsupportedEndpointError } from '../errors.js';
import { callOperation, checkBody, getPage, requireOne, walkOptions, type CallOptions, type PagedCallOptions, type PageQuery, type ResourceContext, type WalkQuery, type WalkSettings } from './base.js';

/** The operations a CRUD resource may have (descriptions/crud.ts). */
export type { CrudOperation };

export class CrudResource<T, C extends z.ZodType, U extends z.ZodType> {
  constructor(
    protected readonly ctx: ResourceContext,
    protected readonly description: ResourceDescription,
  ) {}

  private operation(name: CrudOperation): OperationDescription {
    const operation = this.description.operations[name];
    if (!operation) throw new TypeError(`${this.description.key} has no ${name} operation`);
    return operation;
  }

  /** `updating a role`, as "this server does not support …" names it. */
  operationName(operation: CrudOperation): string {
    return this.operation(operation).unsupported ?? operation;
  }

  /** Whether `operation` is ours, not api.md's: a server may lack it. */
  isExtension(operation: CrudOperation): boolean {
    return !this.operation(operation).published;
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

  async list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): Promise<ListPage<T>> {
    return getPage<T>(this.ctx, this.operation('list'), query, `listing ${this.description.noun}s`, options);
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<T> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  pages(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<T>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  async get(id: number | string, options?: CallOptions): Promise<Single<T>> {
    const body = await callOperation(this.ctx, this.operation('get'), { id }, options);
    return requireOne<T>(body, this.description.noun, id);
  }

  async create(body: z.input<C>, options?: CallOptions): Promise<Written<T>> {
    const operation = this.operation('create');
    const json = checkBody(operation.body as C, body, this.description.noun);
    return written<T>(await callOperation(this.ctx, operation, { json }, options));
  }

  async update(id: number | string, body: z.input<U>, options?: CallOptions): Promise<Written<T>> {
    const operation = this.operation('update');
    const json = checkBody(operation.body as U, body, this.description.noun);
    return written<T>(await callOperation(this.ctx, operation, { id, json }, options));
  }

  async delete(id: number | string, options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, this.operation('delete'), { id }, options);
  }
}
