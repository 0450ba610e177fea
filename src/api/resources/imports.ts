// Contact imports: a CSV uploaded as multipart; processing runs on the server afterwards.
import { waitUntilDone, type WaitOptions } from '../waits.js';
import { NotFoundError, UnsupportedEndpointError } from '../errors.js';
import { written, type Written } from '../answers.js';
import { walkRows, type EngineRequest } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import { importCreateBody, type ContactImport, type Deleted, type Single } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, fileRef, getOneExtension, isRouteMissing, getPage, multipart, walkOptions, workspacePath, type WalkSettings, type PageQuery, type ResourceContext, type WalkQuery } from './base.js';

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

  private path(id?: number | string): string {
    return workspacePath(this.ctx, id === undefined ? '/contact-imports' : encodePath`/contact-imports/${id}`);
  }

  async list(query: PageQuery | PageParams = {}, request?: EngineRequest): Promise<ListPage<ContactImport>> {
    return getPage<ContactImport>(this.ctx, this.path(), { ...query }, 'listing contact imports', request);
  }

  iterate(query: WalkQuery = {}, settings: WalkSettings = {}): AsyncGenerator<ContactImport> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one import, which is how its progress is polled. */
  async get(id: number | string, request?: Partial<Pick<EngineRequest, 'signal'>>): Promise<Single<ContactImport>> {
    return getOneExtension<ContactImport>(this.ctx, this.path(id), 'contact import', id, 'find it in `wsm imports list`', { signal: request?.signal });
  }

  /**
   * One import's current record: GET one import where the server has it, else the import list
   * (api.md's own operation) searched for the id. Undefined when neither holds it. `signal`
   * cancels the request in flight (Ctrl-C during a wait).
   */
  async find(id: number | string, request: Partial<Pick<EngineRequest, 'signal'>> = {}): Promise<ContactImport | undefined> {
    if (!this.getMissing) {
      try {
        return (await this.get(id, request)).data;
      } catch (error) {
        if (error instanceof NotFoundError && !isRouteMissing(error)) return undefined;
        if (!(error instanceof UnsupportedEndpointError)) throw error;
        this.getMissing = true;
      }
    }
    for await (const record of this.iterate({}, { signal: request.signal })) {
      if (String(record.id) === String(id)) return record;
    }
    return undefined;
  }

  async create(options: ImportCreateOptions): Promise<Written<ContactImport>> {
    const { filePath, ...fields } = options;
    const value = checkBody(importCreateBody, fields, 'contact import');
    const form = { ...value, file: { ...fileRef(filePath), contentType: 'text/csv' } };
    return written<ContactImport>(await this.ctx.transport.request({ method: 'POST', path: this.path(), multipart: multipart(form) }));
  }

  async delete(id: number | string): Promise<Deleted> {
    return this.ctx.transport.request({ method: 'DELETE', path: this.path(id) });
  }

  /** Polls import `id` (from `known`, the record in hand) until it is finished or the time is up: waits.ts. */
  waitUntilDone(id: number | string, known: ContactImport, options: WaitOptions & { onRecord?: (record: ContactImport) => void }): Promise<{ record: ContactImport; settled: boolean }> {
    return waitUntilDone(this, id, known, options);
  }
}
