/** meta and links of decisions.md §2, computed once for every list. */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Paginated, PaginationQuery } from '../../api/schemas/index.js';

export function pageEnvelope<T>(request: FastifyRequest, query: PaginationQuery, total: number, data: T[]): Paginated<T> {
  return { data, ...pageMetaAndLinks(request, query, total, data.length) };
}

/**
 * The same envelope around data that is already JSON text (a page SQLite rendered), sent as
 * is; `count` is how many records the text holds, `moreMeta` what an extension adds to `meta`.
 */
export function pageEnvelopeJson(
  request: FastifyRequest,
  query: PaginationQuery,
  total: number,
  count: number,
  dataJson: string,
  moreMeta?: object,
): string {
  const { meta, links } = pageMetaAndLinks(request, query, total, count);
  return `{"data":${dataJson},"meta":${JSON.stringify({ ...meta, ...moreMeta })},"links":${JSON.stringify(links)}}`;
}

function pageMetaAndLinks(request: FastifyRequest, query: PaginationQuery, total: number, count: number): Omit<Paginated<never>, 'data'> {
  const { page, per_page } = query;
  const lastPage = Math.max(1, Math.ceil(total / per_page));
  const from = count ? (page - 1) * per_page + 1 : null;
  const to = from === null ? null : from + count - 1;
  const link = pageUrls(request);
  return {
    meta: { current_page: page, per_page, total, last_page: lastPage, from, to },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
  };
}

/** Stands for the page number in a serialised URL: letters and digits, which URL encoding leaves as they are. */
const PAGE_MARK = `wsmpage${randomBytes(8).toString('hex')}`;

/** The two halves of the links of recently asked URLs: a list asked again (a poll, a dashboard) parses nothing. */
const recentLinks = new Map<string, [before: string, after: string]>();
const RECENT_LINKS_KEPT = 256;

/**
 * The absolute URL of this request with `page` replaced, other query parameters kept: the URL is
 * parsed and serialised once, with a mark where the page number goes (a list answer has four links).
 */
function pageUrls(request: FastifyRequest): (page: number) => string {
  const origin = request.server.originOf(request);
  const key = `${origin} ${request.url}`;
  let halves = recentLinks.get(key);
  if (!halves) {
    // Only the path and query of the request line: its absolute form (`GET http://elsewhere/…`)
    // names a host of the client's choosing, which links never start with (http/origin.ts).
    const asked = new URL(request.url, origin);
    const url = new URL(`${asked.pathname}${asked.search}`, origin);
    url.searchParams.set('page', PAGE_MARK);
    const [before, after] = url.toString().split(PAGE_MARK);
    halves = [before, after];
    if (recentLinks.size >= RECENT_LINKS_KEPT) recentLinks.delete(recentLinks.keys().next().value!);
    recentLinks.set(key, halves);
  }
  const [before, after] = halves;
  return (page) => `${before}${page}${after}`;
}

/** Offset of the first row of a page. */
export const offsetOf = (query: PaginationQuery) => (query.page - 1) * query.per_page;
