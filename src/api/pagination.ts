// Reading the API's paginated lists. The published API gives `{data, meta: {current_page, last_page, ...},
// links}`; a Laravel service may also send its simple paginator (no `last_page`, `links.next`
// only) or refuse a `per_page` above its own cap. Walking them is page-engine.ts's.
import { isJsonObject, type JsonObject } from './answers.js';
import { UnusableResponseError, ValidationFailedError } from './errors.js';

interface PageMeta {
  current_page?: number;
  last_page?: number;
  per_page?: number;
  total?: number;
  from?: number | null;
  to?: number | null;
  [field: string]: unknown;
}

/** One page as read from any server: rows, whatever meta it gave, and the next link when it gave one. */
export interface ListPage<T> {
  data: T[];
  meta: PageMeta;
  /** `links.next` (or Laravel's top-level `next_page_url`): a URL, null for "no more", undefined when not sent. */
  next?: string | null;
}

/** Query parameters of one page request; a next link may bring others (a cursor, say). */
export type PageParams = Record<string, string | number | undefined>;

export interface WalkOptions {
  /** Rows a page to ask for (lowered or dropped if the server refuses it). */
  perPage?: number;
  /** Told when the walk changes course (a per_page lowered): `-v` prints it. */
  notice?: (line: string) => void;
}

const META_FIELDS = ['current_page', 'last_page', 'per_page', 'total', 'from', 'to'] as const;

/** Reads a list answer; one without a `data` array is unusable (exit 1 naming it). */
export function readPage<T>(body: unknown, what: string): ListPage<T> {
  if (Array.isArray(body)) return { data: body as T[], meta: {} };
  if (!isJsonObject(body) || !Array.isArray(body.data)) {
    throw new UnusableResponseError(`the server's answer to ${what} has no \`data\` list`);
  }
  // Laravel's own paginator (not wrapped in a resource) puts the meta fields at the top level.
  const source: JsonObject = isJsonObject(body.meta) ? body.meta : body;
  const meta: PageMeta = isJsonObject(body.meta) ? { ...body.meta } : {};
  for (const field of META_FIELDS) {
    const value = numberOf(source[field]);
    if (value !== undefined) meta[field] = value;
    else if (source[field] === null && (field === 'from' || field === 'to')) meta[field] = null;
    else delete meta[field];
  }
  const links = isJsonObject(body.links) ? body.links : undefined;
  const next = links && 'next' in links ? links.next : body.next_page_url;
  const page: ListPage<T> = { data: body.data as T[], meta };
  if (typeof next === 'string' || next === null) page.next = next;
  return page;
}

/** A count as servers send it: a number, or digits in a string. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/**
 * What to ask after `response`, the page numbered `reached`, read leniently as every walk of a
 * list reads it: the query of `links.next` (a page number past this one, or the server's own
 * cursor); nothing after `links.next: null` or an empty page; without a link, the next page while
 * `last_page` says there is one or, without that either, while pages come back full
 * (`per_page`: what was asked, when the answer does not say). Undefined: that was the last page.
 */
export function pageAfter(response: ListPage<unknown>, reached: number, perPage: number | undefined): PageParams | undefined {
  const { meta, next, data } = response;
  if (data.length === 0 || next === null) return undefined;
  if (typeof next === 'string' && next !== '') {
    const linked = queryOfLink(next);
    const page = numberOf(linked.page);
    return { ...linked, page: page !== undefined && page > reached ? page : linked.cursor !== undefined ? undefined : reached + 1 };
  }
  if (meta.last_page !== undefined) return reached < meta.last_page ? { page: reached + 1 } : undefined;
  const size = meta.per_page ?? perPage;
  return size !== undefined && data.length < size ? undefined : { page: reached + 1 };
}

/** The query parameters of a next link; only the query is used, never its host. */
function queryOfLink(link: string): PageParams {
  let url: URL;
  try {
    url = new URL(link, 'http://next.invalid/');
  } catch {
    return {};
  }
  const params: PageParams = {};
  for (const [key, value] of url.searchParams) params[key] = /^\d+$/.test(value) ? Number(value) : value;
  return params;
}

/**
 * The `per_page` to ask instead when `error` is the server refusing `asked` (a validation failure
 * naming it): the limit its message gives, or undefined for the server's default. Null when the
 * failure is about something else (or no per_page was asked): it stands.
 */
export function perPageWithinCap(error: unknown, asked: PageParams['per_page']): { per_page: number | undefined } | null {
  const current = numberOf(asked);
  if (!(error instanceof ValidationFailedError) || current === undefined || !refusesPerPage(error)) return null;
  const limit = perPageLimit(error);
  return { per_page: limit !== undefined && limit >= 1 && limit < current ? limit : undefined };
}

function refusesPerPage(error: ValidationFailedError): boolean {
  return Object.keys(error.errors).some((field) => /^per_?page$/i.test(field)) || /per[ _]?page/i.test(error.message);
}

/** "The per page field must not be greater than 50." -> 50; also "may not be greater than", "max 50". */
function perPageLimit(error: ValidationFailedError): number | undefined {
  const texts = [
    ...Object.entries(error.errors)
      .filter(([field]) => /^per_?page$/i.test(field))
      .flatMap(([, messages]) => messages),
    error.message,
  ];
  for (const text of texts) {
    const match = /(?:greater than|more than|at most|maximum(?: of)?|max(?:imum)?:?)\s*(\d+)/i.exec(text);
    if (match) return Number(match[1]);
  }
  return undefined;
}
