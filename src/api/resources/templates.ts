// Message templates: list (extension), get, create (JSON, or multipart with a media header file),
// delete, and the sync that pulls approval statuses from the provider.
import { waitUntilDecided, type TemplateDecision, type TrackedTemplate, type WaitOptions } from '../waits.js';
import { requireRecord, written, type Written } from '../answers.js';
import { NotFoundError } from '../errors.js';
import type { PageParams } from '../pagination.js';
import { ERROR_MESSAGES } from '../schemas/common.js';
import type { TEMPLATE_CATEGORIES, Template, TemplateCreateBody } from '../schemas/index.js';
import {
  callOperation,
  describedOperation,
  checkBody,
  fileRef,
  multipart,
  type CallOptions,
  type PagedCallOptions,
  type ResourceContext,
} from './base.js';
import { describedList, type PageList } from './page-list.js';

/** One operation of its description, which is loaded (its zod schemas built) on the first call. */
const operation = (name: string) => describedOperation('templates', name);

export interface TemplateListQuery {
  page?: number;
  per_page?: number;
  status?: string;
  category?: (typeof TEMPLATE_CATEGORIES)[number];
  search?: string;
}

/** Where a template may sit in an answer besides `data` (`{success: true, template}`). */
const RECORD_KEY = 'template';

export interface TemplateSyncResult {
  success: boolean;
  message: string;
  /** True when the server answered 404 "no pending template": not a fault (the published API). */
  nothing_pending: boolean;
}

export class TemplatesResource {
  constructor(private readonly ctx: ResourceContext) {}

  /** Extension: the paginated list with filters. */
  list(query: TemplateListQuery | PageParams = {}, options?: PagedCallOptions): PageList<Template> {
    return describedList<Template>(this.ctx, 'templates', 'listing templates', query, options);
  }

  /** `signal` cancels the request (Ctrl-C during `sync --wait`). */
  async get(id: number | string, options?: CallOptions): Promise<{ data: Template }> {
    const body = await callOperation(this.ctx, await operation('get'), { id }, options);
    return { data: requireRecord<Template>(body, `getting template ${id}`, RECORD_KEY) };
  }

  /** `headerFile` uploads a media header: the body goes as bracket-named multipart fields. */
  async create(body: TemplateCreateBody, files: { headerFile?: string } = {}, options?: CallOptions): Promise<Written<Template>> {
    const create = await operation('create');
    const value = checkBody(create.body!, body, 'template') as TemplateCreateBody;
    if (files.headerFile === undefined) {
      return written<Template>(await callOperation(this.ctx, create, { json: value }, options), RECORD_KEY);
    }
    if (value.header?.type !== 'media') {
      throw new TypeError('a header file needs a media header (header.type "media") in the template');
    }
    const form = { ...value, header: { type: 'media', media: { type: value.header.media.type, file: fileRef(files.headerFile) } } };
    return written<Template>(await callOperation(this.ctx, create, { multipart: multipart(form) }, options), RECORD_KEY);
  }

  async delete(id: number | string, options?: CallOptions): Promise<{ success: boolean; message: string }> {
    return callOperation(this.ctx, await operation('delete'), { id }, options);
  }

  async sync(options?: CallOptions): Promise<TemplateSyncResult> {
    try {
      const answer = await callOperation<{ success?: boolean; message?: string }>(this.ctx, await operation('sync'), {}, options);
      return { success: answer?.success !== false, message: answer?.message ?? 'Templates synchronised.', nothing_pending: false };
    } catch (error) {
      // The published API: 404 {success: false, message} means no template is PENDING. A missing workspace
      // answers a "not found" body (generic, or the template-shaped one), and stays an error.
      const body = error instanceof NotFoundError ? (error.body as { success?: unknown; message?: unknown } | undefined) : undefined;
      const notFoundText = body?.message === ERROR_MESSAGES[404] || body?.message === ERROR_MESSAGES.template404;
      if (body && body.success === false && !notFoundText) {
        return {
          success: false,
          message: typeof body.message === 'string' ? body.message : 'No pending templates.',
          nothing_pending: true,
        };
      }
      throw error;
    }
  }

  /** Syncs until the templates `ids` are decided (or nothing is PENDING, or the time is up): waits.ts. */
  waitUntilDecided(
    ids: string[],
    options: WaitOptions & Pick<CallOptions, 'retry'> & { onRead?: (states: TrackedTemplate[]) => void },
  ): Promise<TemplateDecision> {
    return waitUntilDecided(this, ids, options);
  }
}
