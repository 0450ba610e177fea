// The page engine, without timing: answers are released by hand (out of order, failing, throttled),
// and the clock and sleeps are the test's own.
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { InternalServerError, PageFailedError } from '../../src/api/errors.js';
import { RequestWindow, runEach, walkPages, walkRows, type EngineOptions, type EngineRequest } from '../../src/api/page-engine.js';
import { readPage, type ListPage, type PageParams } from '../../src/api/pagination.js';
import { Transport } from '../../src/api/transport.js';
import { exitCodeFor } from '../../src/cli/errors.js';

interface Row {
  id: number;
}

function page(current: number, last: number | undefined, ids: number[], extra: Partial<ListPage<Row>> = {}): ListPage<Row> {
  return {
    data: ids.map((id) => ({ id })),
    meta: { current_page: current, ...(last === undefined ? {} : { last_page: last, total: last * ids.length }) },
    ...extra,
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A clock the engine sleeps on: sleeping moves it on at once, and is recorded. */
function fakeTime() {
  let now = Date.now();
  const slept: number[] = [];
  return { slept, now: () => now, sleep: async (ms: number) => void (slept.push(ms), (now += ms)) };
}

/** Answers held until the test releases them, so the order of answers is the test's. */
function heldPages(last: number) {
  const waiting = new Map<number, { resolve: (page: ListPage<Row>) => void; reject: (error: unknown) => void }>();
  let inFlight = 0;
  let maxInFlight = 0;
  const arrived: Array<() => void> = [];
  const fetchPage = (params: PageParams, request: EngineRequest) => {
    const n = Number(params.page);
    if (n === 1) return Promise.resolve(page(1, last, [1]));
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    expect(request.limiter.window).toBeInstanceOf(RequestWindow);
    return new Promise<ListPage<Row>>((resolve, reject) => {
      waiting.set(n, { resolve: (p) => ((inFlight -= 1), resolve(p)), reject: (e) => ((inFlight -= 1), reject(e)) });
      arrived.splice(0).forEach((wake) => wake());
    });
  };
  /** Resolves once page `n` has been asked for. */
  const asked = async (n: number) => {
    while (!waiting.has(n)) await new Promise<void>((resolve) => arrived.push(resolve));
  };
  return {
    fetchPage,
    asked,
    waiting,
    stats: () => ({ inFlight, maxInFlight }),
    release: (n: number) => waiting.get(n)!.resolve(page(n, last, [n])),
    fail: (n: number, error: unknown) => waiting.get(n)!.reject(error),
  };
}

let mockAgent: MockAgent | undefined;
afterEach(async () => {
  await mockAgent?.close();
  mockAgent = undefined;
});

/**
 * The engine's requests through a real transport over a MockAgent, as the client makes them: the
 * transport holds each to the engine's window. `backoff` records the transport's own pauses.
 */
function overHttp() {
  mockAgent = new MockAgent();
  mockAgent.disableNetConnect();
  const backoff: number[] = [];
  const transport = new Transport({ baseUrl: 'http://api.test/api/v3', dispatcher: mockAgent, sleep: async (ms) => void backoff.push(ms) });
  const fetchPage = async (params: PageParams, request: EngineRequest) =>
    readPage<Row>(await transport.request({ method: 'GET', path: '/contacts', query: params, ...request }), 'contacts');
  return { pool: mockAgent.get('http://api.test'), transport, fetchPage, backoff };
}

const json = { headers: { 'content-type': 'application/json' } };

describe('walkPages: concurrent once last_page is known', () => {
  it('hands rows on in page order whatever order the answers come in', async () => {
    const held = heldPages(5);
    const rows = collect(walkRows(held.fetchPage, { concurrency: 4 }));
    for (const n of [2, 3, 4, 5]) await held.asked(n);
    expect(held.stats().inFlight).toBe(4);
    for (const n of [5, 3, 4, 2]) held.release(n);
    expect(await rows).toEqual([1, 2, 3, 4, 5].map((id) => ({ id })));
  });

  it('keeps at most `concurrency` requests in flight and a bounded number of pages ahead of the reader', async () => {
    const held = heldPages(40);
    const walk = walkPages(held.fetchPage, { concurrency: 3 });
    expect((await walk.next()).value?.meta.current_page).toBe(1);
    const second = walk.next();
    for (const n of [2, 3, 4]) await held.asked(n);
    expect(held.waiting.has(5)).toBe(false);
    // Later pages answered first wait in memory; the window moves on, but never past 2 windows ahead.
    for (const n of [3, 4]) held.release(n);
    for (const n of [5, 6]) await held.asked(n);
    held.release(5);
    held.release(6);
    await held.asked(7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held.waiting.has(8)).toBe(false); // 2..7 asked: 6 pages ahead of page 2, the bound for 3
    held.release(2);
    expect((await second).value?.data).toEqual([{ id: 2 }]);
    expect(held.stats().maxInFlight).toBe(3);
    await walk.return(undefined);
  });

  // Against a distant server the window stood empty while the reader worked on a page
  // (the export's header, code not yet compiled): requests left only when the reader asked for more.
  it('asks for the next pages as soon as page 1 is in, before the reader asks for page 2', async () => {
    const held = heldPages(20);
    const walk = walkPages(held.fetchPage, { concurrency: 4 });
    expect((await walk.next()).value?.meta.current_page).toBe(1);
    // The reader holds page 1 and asks for nothing more: pages 2..5 are already on their way.
    for (const n of [2, 3, 4, 5]) await held.asked(n);
    expect(held.stats().inFlight).toBe(4);
    await walk.return(undefined);
  });

  it('keeps the window full while the reader holds a page: an answer in frees a place at once', async () => {
    const held = heldPages(20);
    const walk = walkPages(held.fetchPage, { concurrency: 2 });
    await walk.next();
    for (const n of [2, 3]) await held.asked(n);
    held.release(2);
    expect((await walk.next()).value?.data).toEqual([{ id: 2 }]);
    // The reader is busy with page 2 and asks for nothing: page 3's answer lets page 5 leave.
    await held.asked(4);
    held.release(3);
    await held.asked(5);
    expect(held.stats().inFlight).toBe(2);
    await walk.return(undefined);
  });

  it('a reader that stops after page 1 cancels the pages already asked for', async () => {
    const signals: AbortSignal[] = [];
    const fetchPage = (params: PageParams, request: EngineRequest) => {
      signals.push(request.signal);
      const n = Number(params.page);
      return n === 1
        ? Promise.resolve(page(1, 10, [1]))
        : new Promise<ListPage<Row>>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
    };
    const walk = walkPages(fetchPage, { concurrency: 3 });
    await walk.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(signals.length).toBeGreaterThan(1);
    await walk.return(undefined);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('a page that fails stops the walk naming it, after the whole pages before it; later answers are dropped', async () => {
    const held = heldPages(6);
    const seen: number[] = [];
    const done = (async () => {
      for await (const row of walkRows(held.fetchPage, { concurrency: 5 })) seen.push(row.id);
    })();
    for (const n of [2, 3, 4, 5, 6]) await held.asked(n);
    held.release(2);
    held.release(5);
    const cause = new InternalServerError({
      status: 500,
      body: { message: 'Server error.' },
      headers: {},
      method: 'GET',
      url: 'http://h/x',
    });
    held.fail(3, cause);
    held.release(4);
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageFailedError);
    expect((error as PageFailedError).message).toBe('page 3 of 6 failed: Server error. (500); the rows before it were written');
    expect((error as PageFailedError).cause).toBe(cause);
    expect(seen).toEqual([1, 2]);
    // The CLI exits with the cause's code: 6 for a server failure.
    expect(exitCodeFor(error)).toBe(6);
  });

  it('page 1 failing is its own error: nothing was written', async () => {
    const cause = new Error('refused');
    await expect(collect(walkPages(async () => Promise.reject(cause)))).rejects.toBe(cause);
  });

  it('on a 429 halves the window, waits for Retry-After, asks the page again, then grows back one at a time', async () => {
    const time = fakeTime();
    const notices: string[] = [];
    const { pool, fetchPage, backoff } = overHttp();
    pool
      .intercept({ path: '/api/v3/contacts?page=3', method: 'GET' })
      .reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '2' } });
    for (let n = 1; n <= 30; n++) pool.intercept({ path: `/api/v3/contacts?page=${n}`, method: 'GET' }).reply(200, page(n, 30, [n]), json);
    const options: EngineOptions = { concurrency: 4, notice: (line) => notices.push(line), ...time };
    const rows = await collect(walkRows(fetchPage, options));
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // Page 3 asked twice: every interceptor, the 429 and its retry included, was used once.
    mockAgent!.assertNoPendingInterceptors();
    expect(time.slept).toContain(2000);
    expect(backoff).toEqual([]);
    expect(notices[0]).toBe('* 429 on page 3: window 4 -> 2, waiting 2000 ms (Retry-After)');
    expect(notices.slice(1)).toEqual(['* window 2 -> 3', '* window 3 -> 4']);
  });

  it('treats a 503 with Retry-After (an HTTP date) as a throttle; a 503 without one is a server fault: retried, then it fails the page', async () => {
    const time = fakeTime();
    const date = new Date(time.now() + 5_000).toUTCString();
    const { pool, fetchPage, backoff } = overHttp();
    pool
      .intercept({ path: '/api/v3/contacts?page=2', method: 'GET' })
      .reply(503, { message: 'Busy.' }, { headers: { 'retry-after': date } });
    for (let n = 1; n <= 3; n++) pool.intercept({ path: `/api/v3/contacts?page=${n}`, method: 'GET' }).reply(200, page(n, 3, [n]), json);
    const rows = await collect(walkRows(fetchPage, time));
    expect(rows).toHaveLength(3);
    expect(time.slept[0]).toBeGreaterThanOrEqual(4_000);
    expect(backoff).toEqual([]);
    pool.intercept({ path: '/api/v3/contacts?page=1', method: 'GET' }).reply(200, page(1, 3, [1]), json);
    pool.intercept({ path: '/api/v3/contacts?page=2', method: 'GET' }).reply(503, { message: 'Busy.' }).times(3);
    pool
      .intercept({ path: '/api/v3/contacts?page=3', method: 'GET' })
      .reply(200, page(3, 3, [3]), json)
      .persist();
    const error = await collect(walkRows(fetchPage, time)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageFailedError);
    expect((error as Error).cause).toBeInstanceOf(InternalServerError);
    expect(backoff).toHaveLength(2);
  });

  it('goes through the transport without its own 429 retries (the engine paces), over HTTP', async () => {
    mockAgent = new MockAgent();
    mockAgent.disableNetConnect();
    const pool = mockAgent.get('http://api.test');
    const time = fakeTime();
    pool
      .intercept({ path: '/api/v3/contacts?page=1&per_page=2', method: 'GET' })
      .reply(200, { data: [{ id: 1 }, { id: 2 }], meta: { current_page: 1, last_page: 2 } });
    pool
      .intercept({ path: '/api/v3/contacts?page=2&per_page=2', method: 'GET' })
      .reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '1' } });
    pool
      .intercept({ path: '/api/v3/contacts?page=2&per_page=2', method: 'GET' })
      .reply(200, { data: [{ id: 3 }], meta: { current_page: 2, last_page: 2 } });
    const transport = new Transport({
      baseUrl: 'http://api.test/api/v3',
      dispatcher: mockAgent,
      sleep: async () => expect.fail('the transport must not retry a 429 here'),
    });
    const fetchPage = async (params: PageParams, request: EngineRequest) =>
      readPage<Row>(await transport.request({ method: 'GET', path: '/contacts', query: params, ...request }), 'contacts');
    expect(await collect(walkRows(fetchPage, { perPage: 2, ...time }))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(time.slept).toEqual([1000]);
    mockAgent.assertNoPendingInterceptors();
  });

  it('stops early on an empty page (rows deleted meanwhile) and when the reader stops, cancelling what is in flight', async () => {
    const signals: AbortSignal[] = [];
    const fetchPage = async (params: PageParams, request: EngineRequest) => {
      signals.push(request.signal);
      const n = Number(params.page);
      return page(n, 10, n >= 3 ? [] : [n]);
    };
    expect((await collect(walkRows(fetchPage, { concurrency: 2 }))).map((r) => r.id)).toEqual([1, 2]);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('reports progress as rows handed on, with meta.total', async () => {
    const events: unknown[] = [];
    await collect(walkRows(async (params) => page(Number(params.page), 3, [1, 2]), { progress: (event) => events.push(event) }));
    expect(events).toEqual([
      { done: 2, total: 6 },
      { done: 4, total: 6 },
      { done: 6, total: 6 },
    ]);
  });
});

describe('walkPages: one page at a time without last_page', () => {
  it('follows links.next, keeping our query where the link leaves it out', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      const n = Number(p.page);
      return page(n, undefined, [n], { next: n < 3 ? `https://elsewhere.example/api/v3/contacts?page=${n + 1}` : null });
    };
    expect((await collect(walkRows(fetchPage, { perPage: 50 }))).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(asked).toEqual([
      { page: 1, per_page: 50 },
      { page: 2, per_page: 50 },
      { page: 3, per_page: 50 },
    ]);
  });

  it('follows a cursor link, and stops when a link comes round again', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => (
      asked.push({ ...p }), page(1, undefined, [asked.length], { next: 'https://h/x?cursor=abc' })
    );
    expect(await collect(walkRows(fetchPage))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(asked[1]).toEqual({ page: undefined, per_page: undefined, cursor: 'abc' });
  });

  it('without links, a short page ends the walk; a misreported current_page never sends it back', async () => {
    const asked: unknown[] = [];
    const fetchPage = async (p: PageParams) => (
      asked.push(p.page), { data: Number(p.page) < 3 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }], meta: { current_page: 1 } }
    );
    expect(await collect(walkRows(fetchPage, { perPage: 2 }))).toHaveLength(5);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a later page failing names it', async () => {
    const fetchPage = async (p: PageParams) =>
      p.page === 2 ? Promise.reject(new Error('reset')) : page(1, undefined, [1], { next: 'https://h/x?page=2' });
    await expect(collect(walkRows(fetchPage))).rejects.toThrow('page 2 failed: reset; the rows before it were written');
  });
});

describe('runEach: bulk work on the same window', () => {
  it('reports every item in order, failures included, with progress; throttled items go again', async () => {
    const time = fakeTime();
    const events: unknown[] = [];
    const { pool, transport } = overHttp();
    pool.intercept({ path: '/api/v3/contacts/2', method: 'DELETE' }).reply(429, { message: 'Too Many Attempts.' });
    for (const id of [1, 2, 3, 5])
      pool.intercept({ path: `/api/v3/contacts/${id}`, method: 'DELETE' }).reply(200, { message: `deleted ${id}` }, json);
    const reports = await collect(
      runEach(
        [1, 2, 3, 4, 5],
        async (id: number, request: EngineRequest) => {
          if (id === 4) throw new Error('boom');
          return ((await transport.request({ method: 'DELETE', path: `/contacts/${id}`, ...request })) as { message: string }).message;
        },
        (id, result) => (result.ok ? result.value : `failed ${id}: ${(result.error as Error).message}`),
        { concurrency: 3, progress: (event) => events.push(event), ...time },
      ),
    );
    expect(reports).toEqual(['deleted 1', 'deleted 2', 'deleted 3', 'failed 4: boom', 'deleted 5']);
    expect(events.at(-1)).toEqual({ done: 5, total: 5 });
    expect(time.slept).toEqual([1000]);
  });
});

describe('RequestWindow', () => {
  it('halves once per pause (a burst of 429s halves once), never below 1', () => {
    const time = fakeTime();
    const window = new RequestWindow(8, undefined, time.now, time.sleep);
    window.throttled(429, 1000, 'a');
    window.throttled(429, 1000, 'b');
    expect(window.size).toBe(4);
    for (let i = 0; i < 5; i++) {
      time.sleep(2000);
      window.throttled(429, 10, 'c');
    }
    expect(window.size).toBe(1);
  });
});
