/**
 * Shared pieces of the contract: envelopes, pagination, error bodies, and the
 * coercions that let one schema accept both a JSON body and a multipart form
 * (where every value arrives as a string).
 */
import * as z from 'zod';

/** Multipart booleans arrive as text: decisions.md §1 accepts true/false/1/0. */
export const boolish = z.preprocess((value) => {
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return value;
}, z.boolean());

/** A positive integer id given as a number (JSON) or as digits (multipart, query). */
export const idish = z.preprocess(
  (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
  z.number().int().positive(),
);

/** A list that a multipart form may send as one value or as bracketed parts. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return value === '' ? [] : value;
    if (Array.isArray(value)) return value;
    if (typeof value === 'object') return Object.values(value as Record<string, unknown>);
    return [value];
  }, z.array(item));
}

/**
 * Text with something to see: not blank once control and format characters (`\u009c`, a lone
 * zero-width joiner) and the characters drawn as nothing are left out: Unicode's default-ignorable
 * ones (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation selectors) and the braille
 * blank U+2800, a symbol that shows no dot. Such a value is refused like a blank one ("required"),
 * never stored as an invisible name; the server and the CLI's check both hold text to this one
 * rule. The document states it as a pattern.
 */
export const VISIBLE_PATTERN = '[^\\s\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800]';
const VISIBLE = new RegExp(VISIBLE_PATTERN, 'u');
export const visible = <T extends z.ZodString>(text: T) =>
  text
    .superRefine((value, ctx) => {
      if (value !== '' && !VISIBLE.test(value))
        ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: value });
    })
    .meta({ pattern: VISIBLE_PATTERN });

export const nonEmptyName = (max: number) => visible(z.string().trim().min(1).max(max));

export const timestamps = {
  created_at: z.string().describe('ISO 8601, UTC'),
  updated_at: z.string().describe('ISO 8601, UTC'),
};

export const PER_PAGE_MAX = 100;

/**
 * A query integer written in decimal digits only: `0x10`, `1e1` or ` 5` stay text and fail. The
 * bounds sit on the inner schema, so that the OpenAPI document states them too.
 */
const queryInt = (bounds: z.ZodNumber) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value), bounds);

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
