// Contact imports: a CSV uploaded as multipart; processing runs on the server afterwards.
import { waitUntilDone, type WaitOptions } from '../waits.js';
import { NotFoundError, UnsupportedEndpointError } from '../errors.js';
import { written, type Written } from '../answers.js';
import { walkPages, walkRows } from '../page-engine.js';
import { readPage, type ListPage, type PageParams } from '../pagination.js';
import type { ContactImport, Deleted, ImportError, Single } from '../schemas/index.js';
import type { QueryParams } from '../transport.js';
import { callOperation, describedOperation, checkBody, fileRef, getPage, isRouteMissing, multipart, requireOne, walkOptions, type CallOptions, type PagedCallOptions, type PageQuery, type ResourceContext, type WalkQuery, type WalkSettings } from './base.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('imports', name);

export interface ImportCreateOptions {
  name?: string;
  /** One contact group id the imported contacts join (api.md: `contact_groups`, an integer). */
  contact_groups?: number;
  filePath: string;
}

export class ImportsResource {
  /** Set once GET one import answered "not supported": later reads go to the list at once. */
  private getMissing = false;

  constructor(private readonly ctx: ResourceContext) {}

  async list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): Promise<ListPage<ContactImport>> {
    return getPage<ContactImport>(this.ctx, await operation('list'), query, 'listing contact imports', options);
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ContactImport> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  pages(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<ContactImport>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one import, which is how its progress is polled. */
  async get(id: number | string, options?: CallOptions): Promise<Single<ContactImport>> {
    return requireOne<ContactImport>(await callOperation(this.ctx, await operation('get'), { id }, options), 'contact import', id);
  }

  /**
   * One import's current record: GET one import where the server has it, else the import list
   * (api.md's own operation) searched for the id. Undefined when neither holds it. `signal`
   * cancels the request in flight (Ctrl-C during a wait).
   */
  async find(id: number | string, options: CallOptions = {}): Promise<ContactImport | undefined> {
    if (!this.getMissing) {
      try {
        return (await this.get(id, options)).data;
      } catch (error) {
        if (error instanceof NotFoundError && !isRouteMissing(error)) return undefined;
        if (!(error instanceof UnsupportedEndpointError)) throw error;
        this.getMissing = true;
      }
    }
    for await (const record of this.iterate({}, { signal: options.signal })) {
      if (String(record.id) === String(id)) return record;
    }
    return undefined;
  }

  /** Extension: one page of every error import `id` noted (its record holds the first 100). */
  async errors(id: number | string, query: PageQuery | PageParams = {}, options?: PagedCallOptions): Promise<ListPage<ImportError>> {
    const answer = await callOperation(this.ctx, await operation('errors'), { id, query: { ...query } as QueryParams }, options);
    return readPage<ImportError>(answer, `listing the errors of contact import ${id}`);
  }

  /** Every error of import `id`, every page; UnsupportedEndpointError where the server keeps only the record's first 100. */
  iterateErrors(id: number | string, settings: WalkSettings = {}): AsyncGenerator<ImportError> {
    return walkRows((params, request) => this.errors(id, params, request), walkOptions(this.ctx, undefined, settings));
  }

  async create(upload: ImportCreateOptions, options?: CallOptions): Promise<Written<ContactImport>> {
    const { filePath, ...fields } = upload;
    const create = await operation('create');
    const value = checkBody(create.body!, fields, 'contact import') as Record<string, unknown>;
    const form = { ...value, file: { ...fileRef(filePath), contentType: 'text/csv' } };
    return written<ContactImport>(await callOperation(this.ctx, create, { multipart: multipart(form) }, options));
  }

  async delete(id: number | string, options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await operation('delete'), { id }, options);
  }

  /** Polls import `id` (from `known`, the record in hand) until it is finished or the time is up: waits.ts. */
  waitUntilDone(id: number | string, known: ContactImport, options: WaitOptions & Pick<CallOptions, 'retry'> & { onRecord?: (record: ContactImport) => void }): Promise<{ record: ContactImport; settled: boolean }> {
    return waitUntilDone(this, id, known, options);
  }
}
