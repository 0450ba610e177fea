// Contacts: list/search, get one (extension), create and update as JSON or multipart, delete.
import { written, type Written } from '../answers.js';
import { UpdatedInPartError } from '../errors.js';
import { walkPages } from '../page-engine.js';
import { numberOf, type ListPage, type PageParams } from '../pagination.js';
import { filterParams, holdsFilter, pageOfMatches, serverFiltered, splitFieldFilter, type FieldFilter } from './contact-field-filter.js';
import type { Contact, ContactCreateBody, ContactUpdateBody, Deleted, Single } from '../schemas/index.js';
import { PageList } from './page-list.js';
import {
  callOperation,
  describedOperation,
  checkBody,
  fileRef,
  getPage,
  multipart,
  requireOne,
  walkOptions,
  type CallOptions,
  type PagedCallOptions,
  type PageQuery,
  type ResourceContext,
  type WalkQuery,
  type WalkSettings,
} from './base.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('contacts', name);

export interface ContactListQuery extends PageQuery {
  search?: string;
  /** Extension: only contacts holding each custom-field value exactly (contact-field-filter.ts). */
  fields?: FieldFilter;
}

export interface ContactFileOptions {
  /** Path of an image to upload as the avatar (forces multipart). */
  avatar?: string;
}

export class ContactsResource {
  constructor(private readonly ctx: ResourceContext) {}

  /**
   * A page when awaited; every contact when iterated (page-list.ts). With a field filter the server
   * does not apply, a page is cut from the matches of every contact read (`meta.filtered_here`):
   * exact, but a walk of the whole list; a walk keeps each page's matches.
   */
  list(query: ContactListQuery | PageParams = {}, options?: PagedCallOptions): PageList<Contact> {
    const { page: _page, ...filters } = query;
    return new PageList<Contact>({
      one: () => this.page(query, options),
      every: (settings) => this.pages(filters, { signal: options?.signal, ...settings }),
    });
  }

  private async page(query: ContactListQuery | PageParams, options?: PagedCallOptions): Promise<ListPage<Contact>> {
    const { rest, filter } = splitFieldFilter(query);
    const page = await this.plainPage({ ...rest, ...filterParams(filter) }, options);
    if (filter === undefined || serverFiltered(page)) return page;
    const matches: Contact[] = [];
    const { page: asked, per_page: perPage, ...unpaged } = rest;
    for await (const unfiltered of this.pages(unpaged, { signal: options?.signal }))
      matches.push(...unfiltered.data.filter(holdsFilter(filter)));
    return pageOfMatches(matches, numberOf(asked) ?? 1, numberOf(perPage) ?? 10, filter);
  }

  /**
   * Every page as it arrives (100 contacts each unless per_page says otherwise). With a field
   * filter the server does not apply (asked of page 1 first), every page is read and its
   * matches kept, each page marked `meta.filtered_here`.
   */
  private async *pages(query: WalkQuery<ContactListQuery> | PageParams, settings: WalkSettings = {}): AsyncGenerator<ListPage<Contact>> {
    const { rest, filter } = splitFieldFilter(query);
    const walk = (asked: PageParams) =>
      walkPages<Contact>(
        (params, request) => this.plainPage({ ...asked, ...params }, request),
        walkOptions(this.ctx, numberOf(rest.per_page), settings),
      );
    if (filter === undefined) return yield* walk(rest);
    const probe = await this.plainPage({ ...rest, ...filterParams(filter), page: 1, per_page: 1 }, { signal: settings.signal });
    if (serverFiltered(probe)) return yield* walk({ ...rest, ...filterParams(filter) });
    const holds = holdsFilter(filter);
    for await (const page of walk(rest))
      yield { ...page, data: page.data.filter(holds), meta: { ...page.meta, total: undefined, field_filter: filter, filtered_here: true } };
  }

  private async plainPage(query: PageParams, options?: PagedCallOptions): Promise<ListPage<Contact>> {
    return getPage<Contact>(this.ctx, await operation('list'), query, 'listing contacts', options);
  }

  /** Extension: GET one contact; `options` come from the page engine when it is one of many. */
  async get(id: number | string, options?: PagedCallOptions): Promise<Single<Contact>> {
    return requireOne<Contact>(await callOperation(this.ctx, await operation('get'), { id }, options), 'contact', id);
  }

  async create(body: ContactCreateBody, files: ContactFileOptions = {}, options?: CallOptions): Promise<Written<Contact>> {
    const create = await operation('create');
    const value = checkBody(create.body!, body, 'contact') as Record<string, unknown>;
    // The published API: JSON carries number/name/email/gender; status, avatar and groups need the form.
    const needsForm = files.avatar !== undefined || value.status !== undefined || value.contact_groups !== undefined;
    return written<Contact>(await callOperation(this.ctx, create, this.parts(value, files, needsForm), options));
  }

  /** The published API defines the update as POST on the contact (the PUT label in its example is a slip). */
  async update(
    id: number | string,
    body: ContactUpdateBody,
    files: ContactFileOptions = {},
    options?: PagedCallOptions,
  ): Promise<Written<Contact>> {
    const update = await operation('update');
    const value = checkBody(update.body!, body, 'contact') as Record<string, unknown>;
    const needsForm = files.avatar !== undefined || value.contact_groups !== undefined;
    // Setting the same fields twice gives the same contact: safe to retry, unlike the create.
    const send = (body: Record<string, unknown>, form: boolean) =>
      callOperation(this.ctx, update, { id, idempotent: true, ...this.parts(body, files, form) }, options);
    const cleared = needsForm ? Object.keys(value).filter((key) => value[key] === null) : [];
    if (cleared.length === 0) return written<Contact>(await send(value, needsForm));
    // A form cannot say null (an empty e-mail or gender part is refused as invalid; the form leaves
    // null values out): the form carries every other value, then the cleared ones go alone as JSON,
    // which can say null. What a server may refuse (a group, an avatar, an address) is in the form:
    // refused, the contact is as it was. The clears failing after the form was answered leave the
    // contact half updated: the error says which values are set and which are not.
    const form = await send(value, true);
    try {
      return written<Contact>(await send({ name: value.name, ...Object.fromEntries(cleared.map((key) => [key, null])) }, false));
    } catch (error) {
      if (options?.signal?.aborted === true) throw error;
      const set = [...Object.keys(value).filter((key) => value[key] !== null), ...(files.avatar !== undefined ? ['avatar'] : [])];
      throw new UpdatedInPartError({ id, name: value.name, set, notCleared: cleared, contact: written<Contact>(form).data }, error);
    }
  }

  /** `options` come from the page engine when the delete is one of many (`contacts delete --from`). */
  async delete(id: number | string, options?: PagedCallOptions): Promise<Deleted> {
    return callOperation(this.ctx, await operation('delete'), { id }, options);
  }

  private parts(
    value: Record<string, unknown>,
    files: ContactFileOptions,
    needsForm: boolean,
  ): { json: unknown } | { multipart: ReturnType<typeof multipart> } {
    if (!needsForm) return { json: value };
    const parts = multipart({ ...value, ...(files.avatar !== undefined ? { avatar: fileRef(files.avatar) } : {}) });
    // An empty list has no bracketed part to send: one empty `contact_groups` says "none" (a form
    // without it keeps the groups), as a browser form's empty select is read.
    if (Array.isArray(value.contact_groups) && value.contact_groups.length === 0) parts.push({ name: 'contact_groups', value: '' });
    return { multipart: parts };
  }
}
