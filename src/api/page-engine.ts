// The one engine behind every full walk of a list (`--all`, export, every `iterate`) and every bulk
// verb (and, later, `wsm apply`). Against a distant server the time goes to round trips, so:
// - once page 1 gives `last_page`, later pages are fetched concurrently (a window of requests in
//   flight, 8 by default), their rows still handed on in order, and never more than a few windows
//   of pages held at once, whatever the list's size;
// - without `last_page` it follows `links.next` (or a full page) one page at a time;
// - every request goes out under the walk's window (request-window.ts), which the transport holds
//   it to: a 429, or a 503 with Retry-After, halves the window and waits as the server says; each
//   success then grows it back by one per window's worth of successes (AIMD, like TCP). Nothing is
//   lost: the transport asks the throttled request again;
// - a page that still fails stops the walk with PageFailedError naming it; the rows handed on
//   before it are whole pages.
import { PageFailedError } from './errors.js';
import { numberOf, pageAfter, perPageWithinCap, type ListPage, type PageParams, type WalkOptions } from './pagination.js';
import { RequestWindow, type EngineRequest } from './request-window.js';
import type { RetryPolicy } from './transport.js';

export { RequestWindow, type EngineRequest } from './request-window.js';

// 8, as many as the round trips of a bare 8-in-flight walker (6 in flight needs a third more round trips
// than that walker: 0.63x of its speed measured): bench/remote.mjs.
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

export type EngineFetchPage<T> = (params: PageParams, request: EngineRequest) => Promise<ListPage<T>>;

interface ProgressEvent {
  /** Rows handed on (a walk) or items settled (a bulk run). */
  done: number;
  /** The whole, when known (`meta.total`, the number of items). */
  total?: number;
}

export interface EngineOptions extends WalkOptions {
  /** Most requests in flight (default 8). */
  concurrency?: number;
  /** Told after each page or item: a progress display hangs here. */
  progress?: (event: ProgressEvent) => void;
  /** Cancels a walk: its requests in flight are aborted (Ctrl-C during a wait that walks a list). */
  signal?: AbortSignal;
  /** A walk inside a wait: each page's request retried until the wait's deadline (transport.ts). */
  retry?: RetryPolicy;
  /** Test seams. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A promise to wait on and the function that settles it (Promise.withResolvers is ES2024). */
function signal(): { fired: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fired, fire };
}

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * Runs `task` over `count` items, at most `window.size` at once and at most `ahead` items past the
 * first one not yet handed on, and yields the results in item order. A task that throws stops the
 * run there (its error thrown in order, after every earlier result). Returning early cancels the
 * tasks in flight.
 */
async function* inOrder<R>(
  count: number,
  window: RequestWindow,
  ahead: number,
  task: (index: number, signal: AbortSignal) => Promise<R>,
): AsyncGenerator<R> {
  const abort = new AbortController();
  const settled = new Map<number, Settled<R>>();
  let launched = 0;
  let inFlight = 0;
  let next = 0;
  let wake = signal();
  // Called as each task ends too, not only when the caller asks for the next result: a caller
  // busy with a page (its first ones run cold) would otherwise leave the window empty meanwhile.
  const fill = () => {
    while (!abort.signal.aborted && launched < count && inFlight < window.size && launched - next < ahead) {
      const index = launched++;
      inFlight += 1;
      task(index, abort.signal)
        .then(
          (value) => settled.set(index, { ok: true, value }),
          (error: unknown) => settled.set(index, { ok: false, error }),
        )
        .finally(() => {
          inFlight -= 1;
          fill();
          wake.fire();
        });
    }
  };
  try {
    while (next < count) {
      wake = signal();
      fill();
      const result = settled.get(next);
      if (result === undefined) {
        await wake.fired;
        continue;
      }
      settled.delete(next);
      next += 1;
      if (!result.ok) throw result.error;
      yield result.value;
    }
  } finally {
    abort.abort();
  }
}

/** Yields each page of a list from page 1, in order; see the top of this file. */
export async function* walkPages<T>(fetchPage: EngineFetchPage<T>, options: EngineOptions = {}): AsyncGenerator<ListPage<T>> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const window = new RequestWindow(concurrency, options.notice, options.now, options.sleep);
  const abort = new AbortController();
  const cancel = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  let params: PageParams = { page: 1, per_page: options.perPage };
  /**
   * The one request for a page. A per_page the server refuses is lowered to the cap its message
   * gives (or left to its default) and the page asked again; the pages after it ask the same.
   */
  const fetchOne = async (page: number | undefined, signal: AbortSignal): Promise<ListPage<T>> => {
    const request: EngineRequest = {
      limiter: { window, what: `page ${page ?? '(next)'}` },
      signal,
      ...(options.retry ? { retry: options.retry } : {}),
    };
    for (;;) {
      const asked: PageParams = { ...params, page };
      try {
        return await fetchPage(asked, request);
      } catch (error) {
        const within = perPageWithinCap(error, asked.per_page);
        if (within === null) throw error;
        params = { ...params, ...within };
        options.notice?.(
          `* the server refused per_page=${asked.per_page}; asking ${within.per_page === undefined ? 'its default page size' : `per_page=${within.per_page}`}`,
        );
      }
    }
  };
  /** A later page's failure names the page (page 1's stays itself: nothing was written yet). */
  const fetchLater = (page: number | undefined, lastPage: number | undefined, signal: AbortSignal) =>
    fetchOne(page, signal).catch((error: unknown) => {
      throw signal.aborted ? error : new PageFailedError(page, lastPage, error);
    });

  let rows = 0;
  const handOn = (response: ListPage<T>) => {
    rows += response.data.length;
    options.progress?.({ done: rows, total: firstTotal });
  };
  let firstTotal: number | undefined;
  try {
    const first = await fetchOne(1, abort.signal);
    firstTotal = first.meta.total;
    const lastPage = first.meta.last_page;
    const reached = Math.max(1, first.meta.current_page ?? 1);
    // Pages held at once: those in flight plus those waiting for an earlier one, a few windows' worth.
    const pages =
      first.data.length > 0 && lastPage !== undefined && reached < lastPage
        ? inOrder(lastPage - reached, window, concurrency * 2, (index, signal) =>
            fetchLater(reached + 1 + index, lastPage, AbortSignal.any([signal, abort.signal])),
          )
        : undefined;
    // The later pages leave before page 1 is handed on: what the caller does with it first (a
    // header, code not yet compiled) would otherwise keep the window empty meanwhile.
    const second = pages?.next();
    second?.catch(() => undefined);
    handOn(first);
    yield first;
    if (first.data.length === 0) return;
    if (lastPage !== undefined) {
      if (pages === undefined || second === undefined) return;
      for (let step = await second; !step.done; step = await pages.next()) {
        handOn(step.value);
        yield step.value;
        // Rows deleted during the walk: an empty page ends it (later pages would be empty too).
        if (step.value.data.length === 0) return;
      }
      return;
    }
    yield* followLinks(
      first,
      reached,
      (page, extra) => {
        params = { ...params, ...extra };
        return fetchLater(page, undefined, abort.signal).then((response) => (handOn(response), response));
      },
      () => params,
    );
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    abort.abort();
  }
}

/**
 * Without `last_page`: what `pageAfter` reads from each answer (`links.next`'s query over ours, or
 * the next page while pages come back full), one page at a time, always forward; a link that comes
 * round again ends the walk.
 */
async function* followLinks<T>(
  first: ListPage<T>,
  firstReached: number,
  fetch: (page: number | undefined, extra: PageParams) => Promise<ListPage<T>>,
  current: () => PageParams,
): AsyncGenerator<ListPage<T>> {
  const followed = new Set<string>();
  let response = first;
  let reached = firstReached;
  for (;;) {
    const after = pageAfter(response, reached, numberOf(current().per_page));
    if (after === undefined) return;
    if (typeof response.next === 'string' && response.next !== '') {
      if (followed.has(response.next)) return;
      followed.add(response.next);
    }
    response = await fetch(after.page as number | undefined, after);
    yield response;
    reached = Math.max((after.page as number | undefined) ?? reached + 1, response.meta.current_page ?? 0);
  }
}

/** Every row of every page, in order. */
export async function* walkRows<T>(fetchPage: EngineFetchPage<T>, options: EngineOptions = {}): AsyncGenerator<T> {
  for await (const response of walkPages(fetchPage, options)) yield* response.data;
}

/**
 * A bulk run: `call` for each item under the shared window (throttled answers wait and go again),
 * and `settle` turns each item's result or failure into its report line. Reports are yielded in
 * item order; one item's failure never stops the others.
 */
export async function* runEach<I, R, O>(
  items: readonly I[],
  call: (item: I, request: EngineRequest) => Promise<R>,
  settle: (item: I, result: Settled<R>) => O,
  options: EngineOptions & { describe?: (item: I) => string } = {},
): AsyncGenerator<O> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const window = new RequestWindow(concurrency, options.notice, options.now, options.sleep);
  let done = 0;
  const reports = inOrder(items.length, window, concurrency * 4, async (index, signal) => {
    const item = items[index];
    let result: Settled<R>;
    try {
      result = {
        ok: true,
        value: await call(item, { limiter: { window, what: options.describe?.(item) ?? `item ${index + 1}` }, signal }),
      };
    } catch (error) {
      if (signal.aborted) throw error;
      result = { ok: false, error };
    }
    return settle(item, result);
  });
  for await (const report of reports) {
    done += 1;
    options.progress?.({ done, total: items.length });
    yield report;
  }
}
