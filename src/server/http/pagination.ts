/** meta and links of decisions.md §2, computed once for every list. */
import type { FastifyRequest } from 'fastify';
import type { Paginated, PaginationQuery } from '../../api/schemas/index.js';

export function pageEnvelope<T>(request: FastifyRequest, query: PaginationQuery, total: number, data: T[]): Paginated<T> {
  const { page, per_page } = query;
  const lastPage = Math.max(1, Math.ceil(total / per_page));
  const from = data.length ? (page - 1) * per_page + 1 : null;
  const to = from === null ? null : from + data.length - 1;
  const link = (target: number) => pageUrl(request, target);
  return {
    data,
    meta: { current_page: page, per_page, total, last_page: lastPage, from, to },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
  };
}

/** The absolute URL of this request with `page` replaced, other query parameters kept. */
function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** Offset of the first row of a page. */
export const offsetOf = (query: PaginationQuery) => (query.page - 1) * query.per_page;
