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
 * The next page is requested as soon as a page arrives, while the caller is still busy with
 * it: a long walk (`--all`, export) then waits on the network about half as long.
 */
export async function* pages<T, P extends Page<T> = Page<T>>(
  fetchPage: FetchPage<T, P>,
  startPage = 1,
): AsyncGenerator<P> {
  let page = startPage;
  let pending: Promise<P> = fetchPage(page);
  for (;;) {
    const response = await pending;
    const reached = Math.max(page, response.meta.current_page);
    // An empty page also ends the walk: rows may have been deleted while we were paging.
    const more = reached < response.meta.last_page && response.data.length > 0;
    if (more) {
      page = reached + 1;
      pending = fetchPage(page);
      // If the caller stops early, the read-ahead's failure must not surface as unhandled.
      pending.catch(() => undefined);
    }
    yield response;
    if (!more) return;
  }
}

/** Yields every record of every page, in order. */
export async function* paginate<T>(fetchPage: FetchPage<T>, startPage = 1): AsyncGenerator<T> {
  for await (const response of pages(fetchPage, startPage)) {
    yield* response.data;
  }
}
