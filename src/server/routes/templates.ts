/**
 * Message templates (api.md "Templates", decisions.md §5): create (JSON, or
 * multipart with a media header), get, list (extension), delete (local at
 * once, the provider's copy through the outbox) and sync with the provider.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  MEDIA_RULES,
  check,
  templateCreateBody,
  templateListQuery,
  type Template,
  type TemplateCreateInput,
} from '../../api/schemas/index.js';
import { createTemplatesRepository, type StatusChange } from '../repositories/templates.js';
import { createOutboxRepository } from '../repositories/outbox.js';
import { HttpError, invalidField, payloadTooLarge, templateNotFound, validationFailed } from '../http/errors.js';
import { readForm, type UploadedFile } from '../http/multipart.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { MIME, sniff } from '../http/sniff.js';
import { ProviderError, type TemplateProvider } from '../provider/provider.js';
import { registerOutboxWorker } from '../workers/outbox.js';

const TAKEN = 'The name has already been taken for this language.';
const MEDIA_FIELD = 'header[media][file]';
const MEDIA_KEY = 'header.media.file';
/** The largest media any header type allows; the per-type limit is checked once the type is known. */
const MEDIA_MAX_BYTES = Math.max(...Object.values(MEDIA_RULES).map((rule) => rule.maxBytes));

/** api.md: sync and submission failures answer `{success: false, message}` naming the cause. */
const providerFailure = (status: number, message: string) => new HttpError(status, { success: false, message });

function describeProviderError(error: unknown, request: FastifyRequest): string {
  if (error instanceof ProviderError) return error.message;
  // Anything else is a fault in the provider integration: log it, never send its text.
  request.log.error({ err: error }, 'template provider call failed');
  return 'the template provider returned an unexpected error';
}

/** The create form as the JSON body would give it, plus the media file when multipart. */
async function readCreateRequest(request: FastifyRequest): Promise<{ fields: unknown; media?: UploadedFile }> {
  if (!request.isMultipart()) return { fields: request.body };
  const { fields, files } = await readForm(request, { maxFileBytes: MEDIA_MAX_BYTES, maxFiles: 1 });
  return { fields, media: files.find((file) => file.field === MEDIA_FIELD) };
}

/** decisions.md §5: a media header's file, by content and size; 413 beyond the type's limit. */
function checkMedia(input: TemplateCreateInput, media: UploadedFile | undefined): { bytes: Buffer; contentType: string } | undefined {
  if (input.header?.type !== 'media') return undefined;
  if (!media?.buffer) throw invalidField(MEDIA_KEY, 'The header media file is required: send it as a multipart file part.');
  const rule = MEDIA_RULES[input.header.media.type];
  if (media.size > rule.maxBytes) throw payloadTooLarge();
  const format = sniff(media.buffer);
  if (!format || !rule.formats.includes(format)) {
    throw invalidField(MEDIA_KEY, `The header media file must be a file of type: ${rule.formats.join(', ')}.`);
  }
  return { bytes: media.buffer, contentType: MIME[format] };
}

/** The stored shape: what the provider was sent, the media file replaced by its handle. */
function componentsOf(input: TemplateCreateInput, handle: string | undefined): Template['components'] {
  const header = input.header ?? null;
  return {
    header: header?.type === 'media' ? { type: 'media', media: { type: header.media.type, handle: handle! } } : header,
    body: input.body ?? null,
    footer: input.footer ?? null,
    buttons: input.buttons ?? [],
  };
}

function optionsOf(input: TemplateCreateInput): Template['options'] {
  const { unsubscribeButton, blockButton, addSecurityRecommendation, codeExpirationMinutes, copyCodeButton } = input;
  const all = { unsubscribeButton, blockButton, addSecurityRecommendation, codeExpirationMinutes, copyCodeButton };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

async function submit(provider: TemplateProvider, workspaceId: string, input: TemplateCreateInput, media: ReturnType<typeof checkMedia>) {
  const handle = media ? (await provider.uploadMedia(workspaceId, media)).handle : undefined;
  const components = componentsOf(input, handle);
  const options = optionsOf(input);
  const { providerId } = await provider.submit({
    workspaceId,
    name: input.name,
    language: input.language,
    category: input.category,
    components,
    options,
  });
  return { providerId, components, options };
}

function syncMessage(changes: StatusChange[], pendingCount: number): string {
  const count = (status: string) => changes.filter((change) => change.status === status).length;
  const approved = count('APPROVED');
  const rejected = count('REJECTED');
  const other = changes.length - approved - rejected;
  const still = pendingCount - changes.length;
  const otherText = other ? `, ${other} with another status` : '';
  return `Templates synchronised: ${approved} approved, ${rejected} rejected${otherText}, ${still} still pending.`;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

export const templateRoutes: FastifyPluginAsync = async (app) => {
  const templates = createTemplatesRepository(app.db);
  const outbox = createOutboxRepository(app.db);
  const base = '/workspaces/:workspace/templates';
  const templateId = (params: unknown) => parseId((params as { template?: string }).template, templateNotFound);

  registerOutboxWorker(app);

  app.get(base, { config: { permission: 'templates.view' } }, async (request) => {
    const query = parseOr422(templateListQuery, request.query);
    const rows = templates.list(request.workspaceId, query, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, templates.count(request.workspaceId, query), rows);
  });

  app.post(base, { config: { permission: 'templates.create' } }, async (request, reply) => {
    const { fields, media } = await readCreateRequest(request);
    const result = check(templateCreateBody, fields ?? {});
    if (!result.ok) throw validationFailed(result.errors);
    const input = result.value;
    const file = checkMedia(input, media);
    const workspaceId = request.workspaceId;
    if (templates.idOfNameLanguage(workspaceId, input.name, input.language) !== undefined) throw invalidField('name', TAKEN);

    let submitted: Awaited<ReturnType<typeof submit>>;
    try {
      submitted = await submit(app.provider, workspaceId, input, file);
    } catch (error) {
      throw providerFailure(500, `Template could not be submitted: ${describeProviderError(error, request)}.`);
    }
    try {
      const template = templates.create(workspaceId, { ...input, ...submitted });
      return reply.code(201).send({ success: true, message: 'Template created successfully.', data: template });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Lost a race for the name: the provider's copy is an orphan, owed a deletion.
      outbox.enqueue(workspaceId, submitted.providerId);
      throw invalidField('name', TAKEN);
    }
  });

  app.post(`${base}/sync`, { config: { permission: 'templates.sync' } }, async (request) => {
    const workspaceId = request.workspaceId;
    // api.md step 1: nothing PENDING is a 404, not a fault.
    const pending = templates.pending(workspaceId);
    if (pending.length === 0) throw providerFailure(404, 'No pending templates to synchronise.');
    // Step 2: fetch everything from the provider; a failure leaves every status as it was.
    let remote: Awaited<ReturnType<TemplateProvider['list']>>;
    try {
      remote = await app.provider.list(workspaceId);
    } catch (error) {
      throw providerFailure(500, `Template sync failed: ${describeProviderError(error, request)}.`);
    }
    // Steps 3 and 4: match by provider_id and update the PENDING templates that got a verdict.
    const byProviderId = new Map(remote.map((entry) => [entry.providerId, entry]));
    const changes: StatusChange[] = [];
    for (const local of pending) {
      const verdict = local.provider_id ? byProviderId.get(local.provider_id) : undefined;
      if (!verdict || verdict.status === 'PENDING') continue;
      changes.push({ id: local.id, status: verdict.status, reason: verdict.status === 'REJECTED' ? verdict.reason : null });
    }
    templates.applyStatuses(workspaceId, changes);
    return { success: true, message: syncMessage(changes, pending.length) };
  });

  app.get(`${base}/:template`, { config: { permission: 'templates.view' } }, async (request) => {
    const template = templates.find(request.workspaceId, templateId(request.params));
    if (!template) throw templateNotFound();
    return { success: true, data: template };
  });

  app.delete(`${base}/:template`, { config: { permission: 'templates.delete' } }, async (request) => {
    if (!templates.delete(request.workspaceId, templateId(request.params))) throw templateNotFound();
    return { success: true, message: 'Template deleted successfully.' };
  });
};
