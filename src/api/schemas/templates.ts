/**
 * Message templates: the rules of the published API and decisions.md §5 in one place.
 * `wsm templates validate` runs exactly this schema offline; the server runs
 * it on every create.
 */
import * as z from 'zod';
import { boolish, paginationQuery, timestamps, visible } from './common.js';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
const TEMPLATE_NAME_PATTERN = /^[a-z_]+$/;
const LANGUAGE_PATTERN = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const BODY_TEXT_MAX = 1024;
const FOOTER_MAX = 60;
const HEADER_TEXT_MAX = 60;
const BUTTON_TEXT_MAX = 25;
const BUTTONS_MAX = 3;
export const MEDIA_TYPES = ['image', 'video', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** decisions.md §5: what each media header may be, by content. */
export const MEDIA_RULES: Record<MediaType, { maxBytes: number; formats: string[] }> = {
  image: { maxBytes: 5 * 1024 * 1024, formats: ['jpeg', 'png'] },
  video: { maxBytes: 16 * 1024 * 1024, formats: ['mp4'] },
  document: { maxBytes: 100 * 1024 * 1024, formats: ['pdf'] },
};

const EMOJI = /\p{Extended_Pictographic}/u;
const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The placeholder numbers in order of appearance: `Hi {{1}}, {{2}}` -> [1, 2]. */
export function placeholders(text: string): number[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => Number(m[1]));
}

const variables = z.array(z.string().min(1).max(1024)).describe('Samples of {{1}}, {{2}}, … in order.');

/** A text header (the only one a JSON body can carry whole: a media header's file is a form's part). */
export const textHeader = z.object({
  type: z.literal('text').describe('Text header.'),
  text: z
    .object({
      content: visible(z.string().min(1).max(HEADER_TEXT_MAX)).describe('Header text; one {{1}} at most.'),
      variables: variables.optional(),
    })
    .describe('Header text and sample.'),
});
const mediaHeader = z.object({
  type: z.literal('media').describe('Media header.'),
  media: z
    .object({
      type: z.enum(MEDIA_TYPES).describe('Kind of media.'),
      /** On create the file is a multipart part; as returned, a provider handle. */
      file: z.unknown().optional().describe('File uploaded with the template.'),
      handle: z.string().optional().describe("Provider's media handle."),
    })
    .describe('Header media.'),
});
const templateHeader = z.discriminatedUnion('type', [textHeader, mediaHeader]).nullable();

const templateBody = z.object({
  text: visible(z.string().min(1).max(BODY_TEXT_MAX)).describe('Message text; placeholders {{1}}, {{2}}, ….'),
  variables: variables.optional(),
  otp_code: z.string().optional().describe('Sample one-time code.'),
});

const buttonText = visible(z.string().min(1).max(BUTTON_TEXT_MAX)).describe('Button label.');
const templateButton = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('URL').describe('Opens a web page.'),
    text: buttonText,
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .describe('http(s) address.'),
  }),
  z.object({
    type: z.literal('PHONE_NUMBER').describe('Calls a number.'),
    text: buttonText,
    phone_number: z
      .string()
      .regex(/^\+[1-9]\d{1,14}$/, 'The phone number must be in E.164 format, such as +14155550123.')
      .describe('E.164 number.'),
  }),
  z.object({ type: z.literal('QUICK_REPLY').describe('Sends its label.'), text: buttonText }),
]);

const footer = z
  .string()
  .max(FOOTER_MAX)
  .refine((text) => !EMOJI.test(text), { message: 'The footer field must not contain emojis.' });

const templateFields = z.object({
  name: z
    .string()
    .min(1)
    .max(512)
    .regex(TEMPLATE_NAME_PATTERN, 'The name field must contain only lowercase letters and underscores.')
    .describe('Template name: lowercase letters and underscores (order_update).'),
  language: z
    .string()
    .regex(LANGUAGE_PATTERN, 'The language field must be a language code such as en or pt_BR.')
    .describe('Language code such as en or pt_BR.'),
  category: z.enum(TEMPLATE_CATEGORIES).describe('MARKETING, UTILITY or AUTHENTICATION.'),
  header: templateHeader.optional().describe('Optional header: text, or media (image, video, document) uploaded with it.'),
  body: templateBody.optional().describe('The message (AUTHENTICATION templates take the code settings below instead).'),
  footer: footer.nullable().optional().describe('Footer text without emojis, or null.'),
  buttons: z.array(templateButton).max(BUTTONS_MAX).optional().describe('Up to 3 buttons: URL, PHONE_NUMBER or QUICK_REPLY.'),
  unsubscribeButton: boolish.optional().describe('MARKETING: add an unsubscribe button.'),
  blockButton: boolish.optional().describe('MARKETING: add a block button.'),
  addSecurityRecommendation: boolish.optional().describe('AUTHENTICATION: add the security recommendation to the code message.'),
  codeExpirationMinutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(1440)
    .optional()
    .describe('AUTHENTICATION: minutes the code stays valid, 1 to 1440.'),
  copyCodeButton: boolish.optional().describe('AUTHENTICATION: add a copy-code button.'),
});

/** checkCategoryRules as the document states it: an AUTHENTICATION template, or one with a body and no authentication options. */
const present = (...fields: string[]) => ({ anyOf: fields.map((field) => ({ required: [field] })) });
const category = (name: string) => ({ properties: { category: { const: name } } });
const CATEGORY_RULES = [
  {
    anyOf: [
      {
        properties: { category: { const: 'AUTHENTICATION' }, header: { type: 'null' }, footer: { type: 'null' } },
        not: present('body', 'buttons'),
      },
      {
        properties: { category: { not: { const: 'AUTHENTICATION' } } },
        required: ['body'],
        not: present('addSecurityRecommendation', 'codeExpirationMinutes', 'copyCodeButton'),
      },
    ],
  },
  { anyOf: [category('MARKETING'), { not: present('unsubscribeButton', 'blockButton') }] },
];

type Fields = z.infer<typeof templateFields>;
type Ctx = z.RefinementCtx;

/** `path` leads to the object holding the text; `textKey` names the text in it (`text` in body, `content` in a text header). */
function checkPlaceholders(text: unknown, given: unknown, path: string[], textKey: string, ctx: Ctx, maxCount?: number) {
  if (typeof text !== 'string') return;
  const found = placeholders(text);
  if (found.length === 0) return;
  const expected = found.map((_, i) => i + 1);
  const sorted = [...new Set(found)].sort((a, b) => a - b);
  if (sorted.length !== found.length || sorted.some((n, i) => n !== expected[i])) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, textKey],
      message: 'Placeholders must be numbered {{1}}, {{2}}, ... in order without gaps.',
    });
  }
  if (maxCount !== undefined && found.length > maxCount) {
    ctx.addIssue({ code: 'custom', path: [...path, textKey], message: `At most ${maxCount} placeholder is allowed here.` });
  }
  if (!Array.isArray(given) || given.length !== found.length) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'variables'],
      message: `The variables field must have one example per placeholder (${found.length}).`,
    });
  }
}

function checkCategoryRules(t: Loose, ctx: Ctx) {
  const only = (field: keyof Fields, category: string) =>
    ctx.addIssue({ code: 'custom', path: [field], message: `The ${field} field is only allowed for ${category} templates.` });
  if (t.category !== 'MARKETING') {
    if (t.unsubscribeButton !== undefined) only('unsubscribeButton', 'MARKETING');
    if (t.blockButton !== undefined) only('blockButton', 'MARKETING');
  }
  if (t.category !== 'AUTHENTICATION') {
    if (t.addSecurityRecommendation !== undefined) only('addSecurityRecommendation', 'AUTHENTICATION');
    if (t.codeExpirationMinutes !== undefined) only('codeExpirationMinutes', 'AUTHENTICATION');
    if (t.copyCodeButton !== undefined) only('copyCodeButton', 'AUTHENTICATION');
    if (!t.body) ctx.addIssue({ code: 'custom', path: ['body'], message: 'The body field is required.' });
    return;
  }
  // The provider writes an AUTHENTICATION template's text itself (the published API).
  for (const field of ['header', 'body', 'footer', 'buttons'] as const) {
    if (t[field] !== undefined && t[field] !== null) {
      ctx.addIssue({ code: 'custom', path: [field], message: `The ${field} field must not be sent for AUTHENTICATION templates.` });
    }
  }
}

/** Loose view of the input: cross-field rules also run when a field is malformed, so one answer lists every problem. */
type Loose = { [K in keyof Fields]?: unknown } & {
  body?: { text?: unknown; variables?: unknown } | null;
  header?: { type?: unknown; text?: { content?: unknown; variables?: unknown } } | null;
};

export const templateCreateBody = templateFields
  .superRefine(
    (parsed, ctx) => {
      const t = parsed as unknown as Loose;
      checkCategoryRules(t, ctx);
      if (t.body && typeof t.body === 'object') checkPlaceholders(t.body.text, t.body.variables, ['body'], 'text', ctx);
      if (t.header && t.header.type === 'text' && t.header.text) {
        checkPlaceholders(t.header.text.content, t.header.text.variables, ['header', 'text'], 'content', ctx, 1);
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .meta({ allOf: CATEGORY_RULES });
export type TemplateCreateBody = z.input<typeof templateCreateBody>;
export type TemplateCreateInput = z.output<typeof templateCreateBody>;

export const TEMPLATE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

export const templateRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  language: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  status: z.string().describe('PENDING, APPROVED, REJECTED or another provider status'),
  provider_id: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  components: z.object({
    header: templateHeader,
    body: templateBody.nullable(),
    footer: z.string().nullable(),
    buttons: z.array(templateButton),
  }),
  options: z
    .object({
      unsubscribeButton: z.boolean().optional(),
      blockButton: z.boolean().optional(),
      addSecurityRecommendation: z.boolean().optional(),
      codeExpirationMinutes: z.number().int().optional(),
      copyCodeButton: z.boolean().optional(),
    })
    .describe('The category-specific flags the template was created with'),
  ...timestamps,
});
export type Template = z.infer<typeof templateRecord>;

/** Extension: GET /templates with filters. */
/**
 * The statuses a list filter may name: the published API's three and the other statuses of the provider it
 * mentions ("and others of the provider": those of WhatsApp message templates).
 */
export const TEMPLATE_STATUS_FILTERS = [
  ...TEMPLATE_STATUSES,
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
] as const;

export const templateListQuery = paginationQuery.extend({
  // Empty (`?status=`) is no filter; anything else is one of the statuses, never a silent empty list.
  status: z
    .enum([...TEMPLATE_STATUS_FILTERS, ''])
    .optional()
    .describe('Only templates in this review status.'),
  category: z.enum(TEMPLATE_CATEGORIES).optional().describe('Only templates of this category.'),
  search: z.string().max(255).optional().describe('Part of the template name.'),
});

export const templateResponse = z.object({ success: z.literal(true), data: templateRecord });
export const templateCreatedResponse = z.object({ success: z.literal(true), message: z.string(), data: templateRecord });
export const templateDeletedResponse = z.object({ success: z.literal(true), message: z.string() });
export const templateSyncResponse = z.object({ success: z.boolean(), message: z.string() });
