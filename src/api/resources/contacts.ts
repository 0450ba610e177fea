// Contacts: list/search, get one (extension), create and update as JSON or multipart, delete.
import { pages, paginate } from '../pagination.js';
import {
  contactCreateBody,
  contactUpdateBody,
  type Contact,
  type ContactCreateBody,
  type ContactUpdateBody,
  type Created,
  type Deleted,
  type Paginated,
  type Single,
  type Updated,
} from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, fileRef, multipart, workspacePath, type PageQuery, type ResourceContext } from './base.js';

export interface ContactListQuery extends PageQuery {
  search?: string;
}

export interface ContactFileOptions {
  /** Path of an image to upload as the avatar (forces multipart). */
  avatar?: string;
}

export class ContactsResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(id?: number): string {
    return workspacePath(this.ctx, id === undefined ? '/contacts' : encodePath`/contacts/${id}`);
  }

  async list(query: ContactListQuery = {}): Promise<Paginated<Contact>> {
    return this.ctx.transport.request({ method: 'GET', path: this.path(), query: { ...query } });
  }

  /** Every contact of every page, fetched page by page as the caller consumes them. */
  iterate(query: Omit<ContactListQuery, 'page'> = {}): AsyncGenerator<Contact> {
    return paginate((page) => this.list({ per_page: 100, ...query, page }));
  }

  /** Every page as it arrives (100 contacts each unless per_page says otherwise). */
  pages(query: Omit<ContactListQuery, 'page'> = {}): AsyncGenerator<Paginated<Contact>> {
    return pages((page) => this.list({ per_page: 100, ...query, page }));
  }

  /** Extension: GET one contact. */
  async get(id: number): Promise<Single<Contact>> {
    return extension('getting one contact', () => this.ctx.transport.request({ method: 'GET', path: this.path(id) }));
  }

  async create(body: ContactCreateBody, files: ContactFileOptions = {}): Promise<Created<Contact>> {
    const value = checkBody(contactCreateBody, body, 'contact');
    // api.md: JSON carries number/name/email/gender; status, avatar and groups need the form.
    const needsForm = files.avatar !== undefined || value.status !== undefined || value.contact_groups !== undefined;
    return this.send(this.path(), value, files, needsForm, false);
  }

  /** api.md defines the update as POST on the contact (the PUT label in its example is a slip). */
  async update(id: number, body: ContactUpdateBody, files: ContactFileOptions = {}): Promise<Updated<Contact>> {
    const value = checkBody(contactUpdateBody, body, 'contact');
    const needsForm = files.avatar !== undefined || value.contact_groups !== undefined;
    // Setting the same fields twice gives the same contact: safe to retry, unlike the create.
    return this.send(this.path(id), value, files, needsForm, true);
  }

  async delete(id: number): Promise<Deleted> {
    return this.ctx.transport.request({ method: 'DELETE', path: this.path(id) });
  }

  private send<T>(path: string, value: Record<string, unknown>, files: ContactFileOptions, needsForm: boolean, idempotent: boolean): Promise<T> {
    if (!needsForm) return this.ctx.transport.request({ method: 'POST', path, json: value, idempotent });
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    return this.ctx.transport.request({ method: 'POST', path, multipart: multipart(form), idempotent });
  }
}
