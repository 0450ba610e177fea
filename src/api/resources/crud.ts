// The shape shared by the plain collections (the catalog's `collection: true`): under the workspace, with
// list / get / create / update (PUT) / delete, each operation as its resource's description says
// (path, body schema, whether it is an extension and what to do instead where it is missing).
// The description (and its zod schemas) is loaded on the first call.
import type { z } from 'zod';
import { written, type Written } from '../answers.js';
import type { CrudName as CrudOperation } from '../descriptions/crud.js';
import { CATALOG, type ResourceKey } from '../descriptions/catalog.js';
import type { OperationDescription } from '../descriptions/types.js';
import type { PageParams } from '../pagination.js';
import type { Deleted, Single } from '../schemas/index.js';
import { UnsupportedEndpointError } from '../errors.js';
import {
  callOperation,
  describedOperation,
  checkBody,
  requireOne,
  type CallOptions,
  type PagedCallOptions,
  type PageQuery,
  type ResourceContext,
} from './base.js';
import { describedList, type PageList } from './page-list.js';

/** The operations a CRUD resource may have (descriptions/crud.ts). */
export type { CrudOperation };

export class CrudResource<T, C extends z.ZodType, U extends z.ZodType> {
  /** The singular noun of its messages (`contact group`). */
  private readonly noun: string;

  constructor(
    protected readonly ctx: ResourceContext,
    /** Its description's key (`groups`): also its WsmClient property. */
    readonly key: ResourceKey,
  ) {
    this.noun = CATALOG[key].noun;
  }

  private operation(name: CrudOperation): Promise<OperationDescription> {
    return describedOperation(this.key, name);
  }

  /** `updating a role`, as "this server does not support …" names it. */
  async operationName(operation: CrudOperation): Promise<string> {
    return (await this.operation(operation)).unsupported ?? operation;
  }

  /** Whether `operation` is ours, not the published API's: a server may lack it. */
  async isExtension(operation: CrudOperation): Promise<boolean> {
    return !(await this.operation(operation)).published;
  }

  /**
   * Whether the server has this resource's extensions, asked without changing anything: an
   * extension read (one record by `id`, or the list) that is no route there means it has none of
   * them (decisions.md §6 adds them together). Undefined when there is no such read or it failed
   * otherwise: the operation itself will tell.
   */
  async hasExtensions(id?: number | string): Promise<boolean | undefined> {
    const read =
      (await this.isExtension('get')) && id !== undefined
        ? () => this.get(id)
        : (await this.isExtension('list'))
          ? () => this.list({ per_page: 1 })
          : undefined;
    if (read === undefined) return undefined;
    try {
      await read();
      return true;
    } catch (error) {
      return error instanceof UnsupportedEndpointError ? false : undefined;
    }
  }

  /** A page when awaited; every record when iterated (page-list.ts). */
  list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): PageList<T> {
    return describedList<T>(this.ctx, this.key, `listing ${this.noun}s`, query, options);
  }

  async get(id: number | string, options?: CallOptions): Promise<Single<T>> {
    const body = await callOperation(this.ctx, await this.operation('get'), { id }, options);
    return requireOne<T>(body, this.noun, id);
  }

  async create(body: z.input<C>, options?: CallOptions): Promise<Written<T>> {
    const operation = await this.operation('create');
    const json = checkBody(operation.body as C, body, this.noun);
    return written<T>(await callOperation(this.ctx, operation, { json }, options));
  }

  async update(id: number | string, body: z.input<U>, options?: CallOptions): Promise<Written<T>> {
    const operation = await this.operation('update');
    const json = checkBody(operation.body as U, body, this.noun);
    const sent = await this.withCurrent(operation.sendsCurrent ?? [], id, json as Record<string, unknown>, options);
    return written<T>(await callOperation(this.ctx, operation, { id, json: sent }, options));
  }

  /** `body` with the record's current value of each of `fields` it leaves out, when it sets anything else. */
  private async withCurrent(
    fields: string[],
    id: number | string,
    body: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>> {
    const given = (field: string) => body[field] !== undefined;
    const missing = fields.filter((field) => !given(field));
    if (missing.length === 0 || !Object.keys(body).some(given)) return body;
    const current = (await this.get(id, options)).data as Record<string, unknown>;
    return {
      ...body,
      ...Object.fromEntries(missing.filter((field) => current[field] !== undefined).map((field) => [field, current[field]])),
    };
  }

  async delete(id: number | string, options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await this.operation('delete'), { id }, options);
  }
}
