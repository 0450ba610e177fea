// Message templates: list (extension), get, create (JSON, or multipart with a media header file),
// delete, and the sync that pulls approval statuses from the provider.
import { waitUntilDecided, type TemplateDecision, type TrackedTemplate, type WaitOptions } from '../waits.js';
import { requireRecord, written, type Written } from '../answers.js';
import { NotFoundError } from '../errors.js';
import { walkRows, type EngineRequest } from '../page-engine.js';
import type { ListPage, PageParams } from '../pagination.js';
import { ERROR_MESSAGES, type TEMPLATE_CATEGORIES, templateCreateBody, type Template, type TemplateCreateBody } from '../schemas/index.js';
import { encodePath } from '../request-parts.js';
import { checkBody, extension, fileRef, getPage, multipart, walkOptions, workspacePath, type WalkSettings, type ResourceContext, type WalkQuery } from './base.js';

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
  /** True when the server answered 404 "no pending template": not a fault (api.md). */
  nothing_pending: boolean;
}

export class TemplatesResource {
  constructor(private readonly ctx: ResourceContext) {}

  private path(tail = ''): string {
    return workspacePath(this.ctx, '/templates' + tail);
  }

  /** Extension: the paginated list with filters. */
  async list(query: TemplateListQuery | PageParams = {}, request?: EngineRequest): Promise<ListPage<Template>> {
    return extension('listing templates', () => getPage<Template>(this.ctx, this.path(), { ...query }, 'listing templates', request), 'read each with `wsm templates get <id>`');
  }

  iterate(query: WalkQuery<TemplateListQuery> = {}, settings: WalkSettings = {}): AsyncGenerator<Template> {
    return walkRows((params, request) => this.list({ ...query, ...params }, request), walkOptions(this.ctx, query.per_page, settings));
  }

  /** `signal` cancels the request (Ctrl-C during `sync --wait`). */
  async get(id: number | string, request?: Partial<Pick<EngineRequest, 'signal'>>): Promise<{ data: Template }> {
    const body = await this.ctx.transport.request({ method: 'GET', path: this.path(encodePath`/${id}`), signal: request?.signal });
    return { data: requireRecord<Template>(body, `getting template ${id}`, RECORD_KEY) };
  }

  /** `headerFile` uploads a media header: the body goes as bracket-named multipart fields. */
  async create(body: TemplateCreateBody, files: { headerFile?: string } = {}): Promise<Written<Template>> {
    const value = checkBody(templateCreateBody, body, 'template');
    if (files.headerFile === undefined) {
      return written<Template>(await this.ctx.transport.request({ method: 'POST', path: this.path(), json: value }), RECORD_KEY);
    }
    if (value.header?.type !== 'media') {
      throw new TypeError('a header file needs a media header (header.type "media") in the template');
    }
    const form = { ...value, header: { type: 'media', media: { type: value.header.media.type, file: fileRef(files.headerFile) } } };
    return written<Template>(await this.ctx.transport.request({ method: 'POST', path: this.path(), multipart: multipart(form) }), RECORD_KEY);
  }

  async delete(id: number | string): Promise<{ success: boolean; message: string }> {
    return this.ctx.transport.request({ method: 'DELETE', path: this.path(encodePath`/${id}`) });
  }

  async sync(request?: Partial<Pick<EngineRequest, 'signal'>>): Promise<TemplateSyncResult> {
    try {
      const answer = await this.ctx.transport.request<{ success?: boolean; message?: string }>({ method: 'POST', path: this.path('/sync'), signal: request?.signal });
      return { success: answer?.success !== false, message: answer?.message ?? 'Templates synchronised.', nothing_pending: false };
    } catch (error) {
      // api.md: 404 {success: false, message} means no template is PENDING. A missing workspace
      // answers a "not found" body (generic, or the template-shaped one), and stays an error.
      const body = error instanceof NotFoundError ? (error.body as { success?: unknown; message?: unknown } | undefined) : undefined;
      const notFoundText = body?.message === ERROR_MESSAGES[404] || body?.message === ERROR_MESSAGES.template404;
      if (body && body.success === false && !notFoundText) {
        return { success: false, message: typeof body.message === 'string' ? body.message : 'No pending templates.', nothing_pending: true };
      }
      throw error;
    }
  }

  /** Syncs until the templates `ids` are decided (or nothing is PENDING, or the time is up): waits.ts. */
  waitUntilDecided(ids: string[], options: WaitOptions & { onRead?: (states: TrackedTemplate[]) => void }): Promise<TemplateDecision> {
    return waitUntilDecided(this, ids, options);
  }
}
