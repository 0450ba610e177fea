// Walks the API's paginated lists (`{data, meta: {current_page, last_page}}`) as async iterables,
// so callers can stream rows out while later pages are still being fetched.

export interface PageMeta {
  current_page: number;
  last_page: number;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export type FetchPage<T, P extends Page<T> = Page<T>> = (page: number) => Promise<P>;

/**
 * Yields each page response from `startPage` until `meta.last_page`.
 * The walk always moves forward (past both the page asked for and the server's `current_page`),
 * so a server that clamps or misreports a page number cannot send us round in circles.
 */
export async function* pages<T, P extends Page<T> = Page<T>>(
  fetchPage: FetchPage<T, P>,
  startPage = 1,
): AsyncGenerator<P> {
  let page = startPage;
  for (;;) {
    const response = await fetchPage(page);
    yield response;
    const reached = Math.max(page, response.meta.current_page);
    // An empty page also ends the walk: rows may have been deleted while we were paging.
    if (reached >= response.meta.last_page || response.data.length === 0) return;
    page = reached + 1;
  }
}

/** Yields every record of every page, in order. */
export async function* paginate<T>(fetchPage: FetchPage<T>, startPage = 1): AsyncGenerator<T> {
  for await (const response of pages(fetchPage, startPage)) {
    yield* response.data;
  }
}
