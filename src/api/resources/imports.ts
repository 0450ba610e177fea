// Contact imports: a CSV uploaded as multipart; processing runs on the server afterwards.
import { paginate } from '../pagination.js';
import { importCreateBody, type ContactImport, type Created, type Deleted, type Paginated, type Single } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, fileRef, multipart, workspacePath, type PageQuery, type ResourceContext } from './base.js';

export interface ImportCreateOptions {
  name?: string;
  /** One contact group id the imported contacts join (api.md: `contact_groups`, an integer). */
  contact_groups?: number;
  filePath: string;
}

export class ImportsResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(id?: number): string {
    return workspacePath(this.ctx, id === undefined ? '/contact-imports' : encodePath`/contact-imports/${id}`);
  }

  async list(query: PageQuery = {}): Promise<Paginated<ContactImport>> {
    return this.ctx.transport.request({ method: 'GET', path: this.path(), query: { ...query } });
  }

  iterate(query: Omit<PageQuery, 'page'> = {}): AsyncGenerator<ContactImport> {
    return paginate((page) => this.list({ per_page: 100, ...query, page }));
  }

  /** Extension: GET one import, which is how its progress is polled. */
  async get(id: number): Promise<Single<ContactImport>> {
    return extension('getting one contact import', () => this.ctx.transport.request({ method: 'GET', path: this.path(id) }));
  }

  async create(options: ImportCreateOptions): Promise<Created<ContactImport>> {
    const { filePath, ...fields } = options;
    const value = checkBody(importCreateBody, fields, 'contact import');
    const form = { ...value, file: { ...fileRef(filePath), contentType: 'text/csv' } };
    return this.ctx.transport.request({ method: 'POST', path: this.path(), multipart: multipart(form) });
  }

  async delete(id: number): Promise<Deleted> {
    return this.ctx.transport.request({ method: 'DELETE', path: this.path(id) });
  }
}
