/**
 * Shared pieces of the contract: envelopes, pagination, error bodies, and the
 * coercions that let one schema accept both a JSON body and a multipart form
 * (where every value arrives as a string).
 */
import * as z from 'zod';

/**
 * Multipart booleans arrive as text: decisions.md §1 accepts true/false/1/0 there. A JSON number
 * is no boolean (`"status": 0` is refused, as the document says boolean).
 */
export const boolish = z.preprocess((value) => {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}, z.boolean());

/**
 * An e-mail address: zod's rule, but a domain label neither starts nor ends with a hyphen
 * (`a@b-.com` is refused), so that the document's pattern and its `format: email` agree.
 */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
export const emailAddress = () => z.email({ pattern: EMAIL });

/** A positive integer id given as a number (JSON) or as digits (multipart, query). */
export const idish = z.preprocess(
  (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
  z.number().int().positive(),
);

/**
 * A list: an array and nothing else. An object (`{}`, `{"0": 1}`), a string or a number is a 422
 * naming the field, never read as a list (an object taken for `[]` would empty it). A multipart
 * form writes a list with bracket names (`contact_groups[]=3`, `contact_groups[0]=3`), which the
 * form reader makes an array, and the empty list as an empty field (checkBody reads it so).
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.array(item);
}

/**
 * The visible-text rule (`visible` below) as the OpenAPI document states it: the same set of
 * characters as the server's `[^\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]` (which needs
 * JavaScript's `u` flag and which Python's `re` and Java cannot compile), written as explicit
 * ranges of UTF-16 code units: a visible character of the Basic Multilingual Plane, or a surrogate
 * pair making a visible character beyond it. Python's `re`, Java and JavaScript without the `u`
 * flag compile it, and in JavaScript and Java (UTF-16 strings) it takes exactly what the server
 * takes; Python's strings hold code points, so there the first class takes every character beyond
 * the BMP, the few invisible ones there (tags U+E0000-U+E0FFF, U+1D173-U+1D17A, ...) included.
 * test/api/visible-pattern.test.ts derives it again from the server's rule over every code point,
 * and fails when a newer Unicode moves a character.
 */
export const VISIBLE_PATTERN =
  '[^\\u0000-\\u0020\\u007F-\\u00A0\\u00AD\\u034F\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u115F\\u1160\\u1680\\u17B4\\u17B5\\u180B-\\u180F\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u206F\\u2800\\u3000\\u3164\\uD800-\\uDFFF\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB]|[\\uD800-\\uD803\\uD805-\\uD80C\\uD80E-\\uD82E\\uD830-\\uD833\\uD835-\\uDB3F\\uDB44-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD804][\\uDC00-\\uDCBC\\uDCBE-\\uDCCC\\uDCCE-\\uDFFF]|[\\uD80D][\\uDC00-\\uDC2F\\uDC40-\\uDFFF]|[\\uD82F][\\uDC00-\\uDC9F\\uDCA4-\\uDFFF]|[\\uD834][\\uDC00-\\uDD72\\uDD7B-\\uDFFF]';

/**
 * Text with something to see: not blank once control and format characters (`\u009c`, a lone
 * zero-width joiner) and the characters drawn as nothing are left out: Unicode's default-ignorable
 * ones (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation selectors) and the braille
 * blank U+2800, a symbol that shows no dot. Such a value is refused like a blank one ("required"),
 * never stored as an invisible name; the server and the CLI's check both hold text to this one
 * rule. The document states it as a pattern every common engine compiles (VISIBLE_PATTERN).
 */
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
export const visible = <T extends z.ZodString>(text: T) =>
  text
    .superRefine((value, ctx) => {
      if (value !== '' && !VISIBLE.test(value))
        ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: value });
    })
    .meta({ pattern: VISIBLE_PATTERN });

export const nonEmptyName = (max: number) => visible(z.string().trim().min(1).max(max));

/**
 * Text is stored in Unicode's composed form (NFC), so that text which looks the same is the same:
 * `é` typed as one character or as `e` and an accent is one name (decisions.md §8).
 */
export const nfc = (text: string) => text.normalize('NFC');

export const timestamps = {
  created_at: z.string().describe('ISO 8601, UTC'),
  updated_at: z.string().describe('ISO 8601, UTC'),
};

export const PER_PAGE_MAX = 100;

/**
 * A query integer written in decimal digits only (a minus sign allowed, for the bounds to answer
 * `-1`: "at least 1"): `0x10`, `1e1` or ` 5` stay text and fail. The bounds sit on the inner
 * schema, so that the OpenAPI document states them too.
 */
const queryInt = (bounds: z.ZodNumber) =>
  z.preprocess((value) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value), bounds);

/** The last page asked for: its first row's offset stays an exact integer at any per_page. */
export const PAGE_MAX = Math.floor(Number.MAX_SAFE_INTEGER / PER_PAGE_MAX);

export const paginationQuery = z.object({
  page: queryInt(z.number().int().min(1).max(PAGE_MAX)).default(1),
  per_page: queryInt(z.number().int().min(1).max(PER_PAGE_MAX)).default(10),
});
export type PaginationQuery = z.infer<typeof paginationQuery>;

const paginationMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
});
type PaginationMeta = z.infer<typeof paginationMeta>;

const paginationLinks = z.object({
  first: z.string().nullable(),
  last: z.string().nullable(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: paginationMeta, links: paginationLinks });
}
export interface Paginated<T> {
  data: T[];
  meta: PaginationMeta;
  links: z.infer<typeof paginationLinks>;
}

export function single<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}
export function created<T extends z.ZodType>(item: T) {
  return z.object({ status: z.literal(201), message: z.string(), data: item });
}
export function updated<T extends z.ZodType>(item: T) {
  return z.object({ status: z.literal(200), message: z.string(), data: item });
}
export const deleted = z.object({ message: z.string(), status: z.literal(200) });

export interface Single<T> {
  data: T;
}
export interface Created<T> {
  status: 201;
  message: string;
  data: T;
}
export interface Updated<T> {
  status: 200;
  message: string;
  data: T;
}
export interface Deleted {
  message: string;
  status: 200;
}

export const validationErrorBody = z.object({
  message: z.literal('Validation error'),
  errors: z.record(z.string(), z.array(z.string())),
});
export const unauthenticatedBody = z.object({ message: z.literal('Unauthenticated.') });
export const statusErrorBody = z.object({ message: z.string(), status: z.number().int() });
export const templateErrorBody = z.object({
  success: z.literal(false),
  message: z.string(),
  status: z.number().int().optional(),
});

/** Exact error texts of decisions.md §1: one copy, used by server and tests. */
export const ERROR_MESSAGES = {
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Resource not found.',
  405: 'Method not allowed.',
  413: 'Payload too large.',
  500: 'Server error.',
  template404: 'Template not found.',
  validation: 'Validation error',
} as const;
