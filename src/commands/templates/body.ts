// Building a template create body: from a JSON/YAML file, from flags, or both (flags win), plus
// the media header file. Everything here is local; nothing is sent.
import { extname } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { MEDIA_RULES, MEDIA_TYPES, templateCreateBody, type MediaType } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { unknownKeyProblems, type JsonSchemaNode } from '../shared/document-keys.js';
import type { FlagOptions } from '../declare.js';
import { checkUploadFile, parseValue, readTextInput } from '../shared/verb.js';
import type { TEMPLATE_CREATE_FLAGS } from '../templates.js';
import * as z from 'zod';

export type TemplateDraft = Record<string, unknown>;

/**
 * Reads a template document; YAML is a superset of JSON, so one parser reads both. A key a
 * template does not have (a misspelt `footr:`) is exit 2 with its line and the key it may mean:
 * the server would drop it, and a template cannot be edited once it is sent for review.
 */
export async function readTemplateFile(ctx: Context, path: string): Promise<TemplateDraft> {
  const text = await readTextInput(ctx, path);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    // yaml's first line ends on a colon that introduced the code excerpt below it: only the sentence stays.
    const reason = doc.errors[0].message.split('\n')[0].replace(/[\s:]+$/, '');
    throw new UsageError(`${path} is neither valid JSON nor valid YAML: ${reason}`);
  }
  const parsed: unknown = doc.toJS();
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`${path} must hold one template object (name, language, category, body, ...)`);
  }
  const unknown = unknownKeyProblems(parsed, templateJsonSchema(), doc, lines);
  if (Object.keys(unknown).length > 0) throw new RequestValidationError(`${path} is not a valid template file: nothing was sent`, unknown);
  return parsed as TemplateDraft;
}

let templateSchema: JsonSchemaNode | undefined;

/** The JSON Schema of a template create body: the keys a template file may hold, at every depth. */
function templateJsonSchema(): JsonSchemaNode {
  return (templateSchema ??= z.toJSONSchema(templateCreateBody, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode);
}

const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;

/** `QUICK_REPLY:Yes`, `URL:Track:https://x.test/{{1}}`, `PHONE_NUMBER:Call us:+14155550123`. */
function parseButton(spec: string): Record<string, string> {
  const first = spec.indexOf(':');
  const type = (first < 0 ? spec : spec.slice(0, first)).trim().toUpperCase();
  if (!(BUTTON_TYPES as readonly string[]).includes(type) || first < 0) {
    throw new UsageError(`--button takes TYPE:text[:value] with TYPE one of ${BUTTON_TYPES.join(', ')}, got "${spec}"`);
  }
  const rest = spec.slice(first + 1);
  if (type === 'QUICK_REPLY') return { type, text: rest };
  // The value (a URL has colons of its own) is everything after the second colon.
  const second = rest.indexOf(':');
  if (second < 0) throw new UsageError(`--button ${type} needs a value: ${type}:text:${type === 'URL' ? 'https://...' : '+14155550123'}`);
  const text = rest.slice(0, second);
  const value = rest.slice(second + 1);
  return type === 'URL' ? { type, text, url: value } : { type, text, phone_number: value };
}

/** Applies the flags that were given on top of the file's fields. */
export function applyFlags(base: TemplateDraft, opts: FlagOptions<typeof TEMPLATE_CREATE_FLAGS>): TemplateDraft {
  const draft: TemplateDraft = { ...base };
  for (const key of ['name', 'language'] as const) {
    const value = opts[key];
    if (value !== undefined) draft[key] = value;
  }
  const { category } = opts;
  if (category !== undefined) draft.category = category.toUpperCase();
  const { body: bodyText, variable: variables } = opts;
  if (bodyText !== undefined || variables !== undefined) {
    const previous = (typeof draft.body === 'object' && draft.body !== null ? draft.body : {}) as Record<string, unknown>;
    draft.body = { ...previous, ...(bodyText !== undefined ? { text: bodyText } : {}), ...(variables ? { variables } : {}) };
  }
  const { headerText } = opts;
  if (headerText !== undefined) {
    const headerVariables = opts.headerVariable;
    draft.header = { type: 'text', text: { content: headerText, ...(headerVariables ? { variables: headerVariables } : {}) } };
  }
  const { footer } = opts;
  if (footer !== undefined) draft.footer = footer;
  if (opts.button !== undefined) draft.buttons = opts.button.map(parseButton);
  for (const flag of ['unsubscribeButton', 'blockButton', 'addSecurityRecommendation', 'copyCodeButton'] as const) {
    if (opts[flag] === true) draft[flag] = true;
  }
  if (opts.codeExpirationMinutes !== undefined) {
    draft.codeExpirationMinutes = parseValue(z.coerce.number().int(), opts.codeExpirationMinutes, '--code-expiration-minutes');
  }
  return draft;
}

const TYPE_BY_EXTENSION: Record<string, MediaType> = {
  '.jpg': 'image',
  '.jpeg': 'image',
  '.png': 'image',
  '.mp4': 'video',
  '.pdf': 'document',
};

/**
 * With `--header-file`, the header becomes a media header whose type comes from --header-type,
 * else the file's header, else the file extension. The file is checked (readable, size) here.
 */
export async function applyHeaderFile(
  ctx: Context,
  draft: TemplateDraft,
  file: string,
  typeFlag: string | undefined,
): Promise<TemplateDraft> {
  const existing = draft.header as { type?: unknown; media?: { type?: unknown } } | null | undefined;
  const fromDraft = existing?.type === 'media' && typeof existing.media?.type === 'string' ? existing.media.type : undefined;
  const type = typeFlag ?? fromDraft ?? TYPE_BY_EXTENSION[extname(file).toLowerCase()];
  if (type === undefined) throw new UsageError(`cannot tell the media type of ${file}: pass --header-type ${MEDIA_TYPES.join('|')}`);
  const mediaType = parseValue(z.enum(MEDIA_TYPES), type, '--header-type');
  await checkUploadFile(ctx, file, 'header.media.file', MEDIA_RULES[mediaType].maxBytes);
  return { ...draft, header: { type: 'media', media: { type: mediaType } } };
}
