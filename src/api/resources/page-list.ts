// THE page object of every list call (openai-node's shape): `await client.users.list(query)` is one
// page, `for await (const user of client.users.list())` is every row of every page, and
// `.pages(settings)` / `.rows(settings)` walk them with the page engine's settings (requests in
// flight, progress, a cancel signal). Nothing is asked before one of these is used: a walk does
// not pay for a first page it does not read.
import { walkPages, type EngineRequest } from '../page-engine.js';
import { numberOf, type ListPage, type PageParams } from '../pagination.js';
import type { ResourceKey } from '../descriptions/catalog.js';
import {
  describedOperation,
  getPage,
  walkOptions,
  type PagedCallOptions,
  type PageQuery,
  type ResourceContext,
  type WalkSettings,
} from './base.js';

/** One page of a list: the query's filters with the page engine's (or the caller's) page and size. */
export type PageFetch<T, Q> = (query: Q & PageParams, options?: PagedCallOptions) => Promise<ListPage<T>>;

export interface PageWalk<T> {
  /** The page the query names (its `page` and `per_page`). */
  one: () => Promise<ListPage<T>>;
  /** Every page from the first, `per_page` as the query asks (the largest otherwise). */
  every: (settings: WalkSettings) => AsyncGenerator<ListPage<T>>;
}

export class PageList<T> implements PromiseLike<ListPage<T>>, AsyncIterable<T> {
  private first: Promise<ListPage<T>> | undefined;

  constructor(private readonly walk: PageWalk<T>) {}

  // biome-ignore lint/suspicious/noThenProperty: awaiting a list call is asking for its page, as a Promise does
  then<A = ListPage<T>, B = never>(
    onPage?: ((page: ListPage<T>) => A | PromiseLike<A>) | null,
    onError?: ((error: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.first ??= this.walk.one();
    return this.first.then(onPage, onError);
  }

  /** Every page as it arrives, in order. */
  pages(settings: WalkSettings = {}): AsyncGenerator<ListPage<T>> {
    return this.walk.every(settings);
  }

  /** Every row of every page, in order. */
  async *rows(settings: WalkSettings = {}): AsyncGenerator<T> {
    for await (const page of this.walk.every(settings)) yield* page.data;
  }

  [Symbol.asyncIterator](): AsyncGenerator<T> {
    return this.rows();
  }
}

/** The page object of a list whose every page is `fetch` with the query's filters. */
export function pageList<T, Q extends PageQuery>(
  ctx: ResourceContext,
  fetch: PageFetch<T, Q>,
  query: Q | (Q & PageParams),
  options?: PagedCallOptions,
): PageList<T> {
  const { page: _page, ...filters } = query as Q & PageParams;
  return new PageList<T>({
    one: () => fetch(query as Q & PageParams, options),
    every: (settings) =>
      walkPages<T>(
        (params: PageParams, request: EngineRequest) => fetch({ ...filters, ...params } as Q & PageParams, request),
        walkOptions(ctx, numberOf(filters.per_page), { signal: options?.signal, ...settings }),
      ),
  });
}

/** The page object of a resource's described `list` operation (`what` names it in an unusable-answer error). */
export function describedList<T>(
  ctx: ResourceContext,
  key: ResourceKey,
  what: string,
  query: object = {},
  options?: PagedCallOptions,
): PageList<T> {
  return pageList<T, PageQuery>(
    ctx,
    async (asked, request) => getPage<T>(ctx, await describedOperation(key, 'list'), asked, what, request),
    query as PageQuery,
    options,
  );
}
