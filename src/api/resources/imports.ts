// Contact imports: a CSV uploaded as multipart; processing runs on the server afterwards.
import { basename } from 'node:path';
import { waitUntilDone, type WaitOptions } from '../waits.js';
import { NotFoundError, UnsupportedEndpointError } from '../errors.js';
import { written, type Written } from '../answers.js';
import { readPage, type PageParams } from '../pagination.js';
import type { ContactImport, Deleted, ImportError, Single } from '../schemas/index.js';
import type { QueryParams } from '../transport.js';
import {
  callOperation,
  describedOperation,
  checkBody,
  fileRef,
  isRouteMissing,
  multipart,
  requireOne,
  type CallOptions,
  type PagedCallOptions,
  type PageQuery,
  type ResourceContext,
} from './base.js';
import { describedList, type PageList, pageList } from './page-list.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('imports', name);

export interface ImportCreateOptions {
  name?: string;
  /** One contact group id the imported contacts join (the published API: `contact_groups`, an integer). */
  contact_groups?: number;
  filePath: string;
  /** The file's name as the server is given it; the path's own by default. */
  fileName?: string | undefined;
  /** The bytes sent in place of the file's own (the file without the cells a plan holds), read as they are sent. */
  bytes?: Blob | undefined;
}

export class ImportsResource {
  /** Set once GET one import answered "not supported": later reads go to the list at once. */
  private getMissing = false;

  constructor(private readonly ctx: ResourceContext) {}

  list(query: PageQuery | PageParams = {}, options?: PagedCallOptions): PageList<ContactImport> {
    return describedList<ContactImport>(this.ctx, 'imports', 'listing contact imports', query, options);
  }

  /** Extension: GET one import, which is how its progress is polled. */
  async get(id: number | string, options?: CallOptions): Promise<Single<ContactImport>> {
    return requireOne<ContactImport>(await callOperation(this.ctx, await operation('get'), { id }, options), 'contact import', id);
  }

  /**
   * One import's current record: GET one import where the server has it, else the import list
   * (the published API's own operation) searched for the id. Undefined when neither holds it. `signal`
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
    for await (const record of this.list().rows({ signal: options.signal })) {
      if (String(record.id) === String(id)) return record;
    }
    return undefined;
  }

  /**
   * Extension: every error import `id` noted (its record holds the first 100), a page when awaited;
   * UnsupportedEndpointError where the server keeps only the record's first 100.
   */
  errors(id: number | string, query: PageQuery | PageParams = {}, options?: PagedCallOptions): PageList<ImportError> {
    const fetch = async (asked: PageParams, request?: PagedCallOptions) =>
      readPage<ImportError>(
        await callOperation(this.ctx, await operation('errors'), { id, query: { ...asked } as QueryParams }, request),
        `listing the errors of contact import ${id}`,
      );
    return pageList<ImportError, PageQuery>(this.ctx, fetch, query as PageQuery, options);
  }

  async create(upload: ImportCreateOptions, options?: CallOptions): Promise<Written<ContactImport>> {
    const { filePath, fileName, bytes, ...fields } = upload;
    const create = await operation('create');
    const value = checkBody(create.body!, fields, 'contact import') as Record<string, unknown>;
    const form = {
      ...value,
      file: {
        ...(bytes === undefined ? fileRef(filePath) : { data: bytes, filename: basename(filePath) }),
        contentType: 'text/csv',
        ...(fileName !== undefined ? { filename: fileName } : {}),
      },
    };
    return written<ContactImport>(await callOperation(this.ctx, create, { multipart: multipart(form) }, options));
  }

  async delete(id: number | string, options?: CallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await operation('delete'), { id }, options);
  }

  /** Polls import `id` (from `known`, the record in hand) until it is finished or the time is up: waits.ts. */
  waitUntilDone(
    id: number | string,
    known: ContactImport,
    options: WaitOptions & Pick<CallOptions, 'retry'> & { onRecord?: (record: ContactImport) => void },
  ): Promise<{ record: ContactImport; settled: boolean }> {
    return waitUntilDone(this, id, known, options);
  }
}
