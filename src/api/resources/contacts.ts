// Contacts: list/search, get one (extension), create and update as JSON or multipart, delete.
import { written, type Written } from '../answers.js';
import { walkPages, walkRows } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import type { Contact, ContactCreateBody, ContactUpdateBody, Deleted, Single } from '../schemas/index.js';
import { callOperation, describedOperation, checkBody, fileRef, getPage, multipart, requireOne, walkOptions, type CallOptions, type PagedCallOptions, type PageQuery, type ResourceContext, type WalkQuery, type WalkSettings } from './base.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('contacts', name);

export interface ContactListQuery extends PageQuery {
  search?: string;
}

export interface ContactFileOptions {
  /** Path of an image to upload as the avatar (forces multipart). */
  avatar?: string;
}

export class ContactsResource {
  constructor(private readonly ctx: ResourceContext) {}

  async list(query: ContactListQuery | PageParams = {}, options?: PagedCallOptions): Promise<ListPage<Contact>> {
    return getPage<Contact>(this.ctx, await operation('list'), query, 'listing contacts', options);
  }

  /** Every contact of every page, fetched page by page as the caller consumes them. */
  iterate(query: WalkQuery<ContactListQuery> = {}, settings: WalkSettings = {}): AsyncGenerator<Contact> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Every page as it arrives (100 contacts each unless per_page says otherwise). */
  pages(query: WalkQuery<ContactListQuery> = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<Contact>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one contact; `options` come from the page engine when it is one of many. */
  async get(id: number | string, options?: PagedCallOptions): Promise<Single<Contact>> {
    return requireOne<Contact>(await callOperation(this.ctx, await operation('get'), { id }, options), 'contact', id);
  }

  async create(body: ContactCreateBody, files: ContactFileOptions = {}, options?: CallOptions): Promise<Written<Contact>> {
    const create = await operation('create');
    const value = checkBody(create.body!, body, 'contact') as Record<string, unknown>;
    // api.md: JSON carries number/name/email/gender; status, avatar and groups need the form.
    const needsForm = files.avatar !== undefined || value.status !== undefined || value.contact_groups !== undefined;
    return written<Contact>(await callOperation(this.ctx, create, this.parts(value, files, needsForm), options));
  }

  /** api.md defines the update as POST on the contact (the PUT label in its example is a slip). */
  async update(id: number | string, body: ContactUpdateBody, files: ContactFileOptions = {}, options?: PagedCallOptions): Promise<Written<Contact>> {
    const update = await operation('update');
    const value = checkBody(update.body!, body, 'contact') as Record<string, unknown>;
    const needsForm = files.avatar !== undefined || value.contact_groups !== undefined;
    // Setting the same fields twice gives the same contact: safe to retry, unlike the create.
    return written<Contact>(await callOperation(this.ctx, update, { id, idempotent: true, ...this.parts(value, files, needsForm) }, options));
  }

  /** `options` come from the page engine when the delete is one of many (`contacts delete --from`). */
  async delete(id: number | string, options?: PagedCallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await operation('delete'), { id }, options);
  }

  private parts(value: Record<string, unknown>, files: ContactFileOptions, needsForm: boolean): { json: unknown } | { multipart: ReturnType<typeof multipart> } {
    if (!needsForm) return { json: value };
    return { multipart: multipart({ ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) }) };
  }
}
