/**
 * Message templates (the published API "Templates", decisions.md §5): create (JSON, or
 * multipart with a media header), get, list (extension), delete (local at
 * once, the provider's copy through the outbox) and sync with the provider.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { MEDIA_RULES, type Template, type TemplateCreateInput } from '../../api/schemas/index.js';
import type { StatusChange } from '../repositories/templates.js';
import { HttpError, invalidField, payloadTooLarge, templateNotFound } from '../http/errors.js';
import { readForm, type UploadedFile } from '../http/multipart.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { pathId } from '../http/validate.js';
import { described, sentBody, validQuery, type Declaring } from '../http/contract.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { MIME, sniff } from '../http/sniff.js';
import { ProviderError, type TemplateProvider } from '../provider/provider.js';
import { registerOutboxWorker } from '../workers/outbox.js';

const TAKEN = 'The name has already been taken for this language.';
const MEDIA_FIELD = 'header[media][file]';
const MEDIA_KEY = 'header.media.file';
/** The largest media any header type allows; the per-type limit is checked once the type is known. */
const MEDIA_MAX_BYTES = Math.max(...Object.values(MEDIA_RULES).map((rule) => rule.maxBytes));

/**
 * The published API: sync and submission failures answer `{success: false, message}` naming the cause; with
 * `status` too, as every other error body of decisions.md §1 carries it.
 */
const providerFailure = (status: number, message: string) => new HttpError(status, { success: false, message, status });

/** A provider that never answers must not hold the request for ever: past the limit it is the `timeout` fault. */
function bounded<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError('timeout')), ms);
  });
  return Promise.race([call, limit]).finally(() => clearTimeout(timer));
}

function describeProviderError(error: unknown, request: FastifyRequest): string {
  if (error instanceof ProviderError) return error.message;
  // Anything else is a fault in the provider integration: log it, never send its text.
  request.log.error({ err: error }, 'template provider call failed');
  return 'the template provider returned an unexpected error';
}

/**
 * The create form as the JSON body would give it, plus the media file when multipart. The media
 * goes to a file in `dir` (a document may be 100 MB: never whole in memory before its size and
 * type are checked); every path written is pushed onto `written` for the caller to remove.
 */
async function readCreateRequest(
  request: FastifyRequest,
  dir: string,
  written: string[],
): Promise<{ fields: unknown; media?: UploadedFile }> {
  if (!request.isMultipart()) return { fields: request.body };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = () => {
    const path = join(dir, `${randomUUID()}.media`);
    written.push(path);
    return path;
  };
  const { fields, files } = await readForm(request, {
    maxFileBytes: MEDIA_MAX_BYTES,
    maxFiles: operations.create.fileParts,
    toDisk: { [MEDIA_FIELD]: target },
    discardOtherFiles: true,
  });
  return { fields, media: files.find((file) => file.field === MEDIA_FIELD) };
}

async function headOf(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** decisions.md §5: a media header's file, by content and size; 413 beyond the type's limit. Read into memory only once accepted. */
async function checkMedia(
  input: TemplateCreateInput,
  media: UploadedFile | undefined,
): Promise<{ bytes: Buffer; contentType: string } | undefined> {
  if (input.header?.type !== 'media') return undefined;
  if (!media?.path) throw invalidField(MEDIA_KEY, 'The header media file is required: send it as a multipart file part.');
  const rule = MEDIA_RULES[input.header.media.type];
  if (media.size > rule.maxBytes) throw payloadTooLarge();
  const format = sniff(await headOf(media.path));
  if (!format || !rule.formats.includes(format)) {
    throw invalidField(MEDIA_KEY, `The header media file must be a file of type: ${rule.formats.join(', ')}.`);
  }
  return { bytes: await readFile(media.path), contentType: MIME[format] };
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

async function submit(
  provider: TemplateProvider,
  workspaceId: string,
  input: TemplateCreateInput,
  media: Awaited<ReturnType<typeof checkMedia>>,
) {
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

const { operations } = DESCRIPTIONS.templates;

export const templateRoutes: FastifyPluginAsync = async (app) => {
  const { templates, outbox } = app.repositories;
  const create = described(operations.create, { body: s.templateCreateBody });
  const templateId = (params: unknown) => pathId((params as { template?: string }).template, templateNotFound);
  const mediaDir = join(app.uploadsDir, 'media');

  registerOutboxWorker(app);

  app.route({
    ...described(operations.list, { querystring: s.templateListQuery }),
    handler: async (request) => {
      const query = validQuery(request);
      const rows = templates.list(request.workspaceId, query, offsetOf(query), query.per_page);
      return pageEnvelope(request, query, templates.count(request.workspaceId, query), rows);
    },
  });

  app.route({
    ...create,
    handler: async (request, reply) => {
      const written: string[] = [];
      let template: Template;
      try {
        template = await createTemplate(request, written);
      } finally {
        // The media file is the provider's now (or refused): none is kept here, whatever the answer.
        await Promise.all(written.map((path) => rm(path, { force: true })));
      }
      return reply.code(201).send({ success: true, message: 'Template created successfully.', data: template });
    },
  });

  async function createTemplate(request: Declaring<typeof create.schema>, written: string[]): Promise<Template> {
    const { fields, media } = await readCreateRequest(request, mediaDir, written);
    const input = sentBody(request, fields);
    const file = await checkMedia(input, media);
    const workspaceId = request.workspaceId;
    if (templates.idOfNameLanguage(workspaceId, input.name, input.language) !== undefined) throw invalidField('name', TAKEN);

    let submitted: Awaited<ReturnType<typeof submit>>;
    const submission = submit(app.provider, workspaceId, input, file);
    try {
      submitted = await bounded(submission, app.providerTimeoutMs);
    } catch (error) {
      // A submission that completes after the time-out is an orphan at the provider: owe it a deletion.
      submission.then(
        ({ providerId }) => {
          try {
            outbox.enqueue(workspaceId, providerId);
          } catch (late) {
            app.log.error({ err: late }, 'could not record the deletion owed for a timed-out submission');
          }
        },
        () => undefined,
      );
      throw providerFailure(500, `Template could not be submitted: ${describeProviderError(error, request)}.`);
    }
    try {
      return templates.create(workspaceId, { ...input, ...submitted });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Lost a race for the name: the provider's copy is an orphan, owed a deletion.
      outbox.enqueue(workspaceId, submitted.providerId);
      throw invalidField('name', TAKEN);
    }
  }

  app.route({
    ...described(operations.sync),
    handler: async (request) => {
      const workspaceId = request.workspaceId;
      // The published API step 1: nothing PENDING is a 404, not a fault.
      const pending = templates.pending(workspaceId);
      if (pending.length === 0) throw providerFailure(404, 'No pending templates to synchronise.');
      // Step 2: fetch everything from the provider; a failure leaves every status as it was.
      let remote: Awaited<ReturnType<TemplateProvider['list']>>;
      try {
        remote = await bounded(app.provider.list(workspaceId), app.providerTimeoutMs);
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
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const template = templates.find(request.workspaceId, templateId(request.params));
      if (!template) throw templateNotFound();
      return { success: true, data: template };
    },
  });

  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      if (!templates.delete(request.workspaceId, templateId(request.params))) throw templateNotFound();
      return { success: true, message: 'Template deleted successfully.' };
    },
  });
};
