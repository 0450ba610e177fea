// Contacts: list/search, get one (extension), create and update as JSON or multipart, delete.
import { written, type Written } from '../answers.js';
import { walkPages, walkRows, type EngineRequest } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import {
  contactCreateBody,
  contactUpdateBody,
  type Contact,
  type ContactCreateBody,
  type ContactUpdateBody,
  type Deleted,
  type Single,
} from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, fileRef, getOneExtension, getPage, multipart, walkOptions, workspacePath, type WalkSettings, type PageQuery, type ResourceContext, type WalkQuery } from './base.js';

export interface ContactListQuery extends PageQuery {
  search?: string;
}

export interface ContactFileOptions {
  /** Path of an image to upload as the avatar (forces multipart). */
  avatar?: string;
}

export class ContactsResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(id?: number | string): string {
    return workspacePath(this.ctx, id === undefined ? '/contacts' : encodePath`/contacts/${id}`);
  }

  async list(query: ContactListQuery | PageParams = {}, request?: EngineRequest): Promise<ListPage<Contact>> {
    return getPage<Contact>(this.ctx, this.path(), { ...query }, 'listing contacts', request);
  }

  /** Every contact of every page, fetched page by page as the caller consumes them. */
  iterate(query: WalkQuery<ContactListQuery> = {}, settings: WalkSettings = {}): AsyncGenerator<Contact> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Every page as it arrives (100 contacts each unless per_page says otherwise). */
  pages(query: WalkQuery<ContactListQuery> = {}, settings: WalkSettings = {}): AsyncGenerator<ListPage<Contact>> {
    return walkPages((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** Extension: GET one contact; `request` comes from the page engine when it is one of many. */
  async get(id: number | string, request?: EngineRequest): Promise<Single<Contact>> {
    return getOneExtension<Contact>(this.ctx, this.path(id), 'contact', id, 'find it with `wsm contacts list --search <number or name>`', request);
  }

  async create(body: ContactCreateBody, files: ContactFileOptions = {}): Promise<Written<Contact>> {
    const value = checkBody(contactCreateBody, body, 'contact');
    // api.md: JSON carries number/name/email/gender; status, avatar and groups need the form.
    const needsForm = files.avatar !== undefined || value.status !== undefined || value.contact_groups !== undefined;
    return written<Contact>(await this.send(this.path(), value, files, needsForm, false));
  }

  /** api.md defines the update as POST on the contact (the PUT label in its example is a slip). */
  async update(id: number | string, body: ContactUpdateBody, files: ContactFileOptions = {}, request?: EngineRequest): Promise<Written<Contact>> {
    const value = checkBody(contactUpdateBody, body, 'contact');
    const needsForm = files.avatar !== undefined || value.contact_groups !== undefined;
    // Setting the same fields twice gives the same contact: safe to retry, unlike the create.
    return written<Contact>(await this.send(this.path(id), value, files, needsForm, true, request));
  }

  /** `request` comes from the page engine when the delete is one of many (`contacts delete --from`). */
  async delete(id: number | string, request?: EngineRequest): Promise<Deleted> {
    return this.ctx.transport.request({ method: 'DELETE', path: this.path(id), retryThrottled: request?.retryThrottled, signal: request?.signal });
  }

  private send(path: string, value: Record<string, unknown>, files: ContactFileOptions, needsForm: boolean, idempotent: boolean, request?: EngineRequest): Promise<unknown> {
    const pacing = { retryThrottled: request?.retryThrottled, signal: request?.signal };
    if (!needsForm) return this.ctx.transport.request({ method: 'POST', path, json: value, idempotent, ...pacing });
    const form = { ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) };
    return this.ctx.transport.request({ method: 'POST', path, multipart: multipart(form), idempotent, ...pacing });
  }
}
