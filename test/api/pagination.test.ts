import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { UnusableResponseError, UnprocessableEntityError, ValidationFailedError } from '../../src/api/errors.js';
import { pages, paginate, readPage, type ListPage, type PageParams } from '../../src/api/pagination.js';
import { Transport } from '../../src/api/transport.js';

interface Row {
  id: number;
}

function page(current: number, last: number | undefined, ids: number[], extra: Partial<ListPage<Row>> = {}): ListPage<Row> {
  return { data: ids.map((id) => ({ id })), meta: { current_page: current, ...(last === undefined ? {} : { last_page: last }) }, ...extra };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

let mockAgent: MockAgent | undefined;
afterEach(async () => {
  await mockAgent?.close();
  mockAgent = undefined;
});

describe('readPage', () => {
  it('reads api.md\'s envelope, Laravel\'s meta with links[] and path, and string numbers', () => {
    const read = readPage<Row>(
      { data: [{ id: '1' }], meta: { current_page: '2', last_page: 3, per_page: 15, total: '31', path: '/x', links: [{ url: null, label: '1', active: true }] }, links: { next: 'http://h/x?page=3' } },
      'listing x',
    );
    expect(read.meta).toMatchObject({ current_page: 2, last_page: 3, per_page: 15, total: 31, path: '/x' });
    expect(read.next).toBe('http://h/x?page=3');
    expect(read.data).toEqual([{ id: '1' }]);
  });

  it('reads Laravel\'s bare paginator (meta at the top level, next_page_url) and a bare array', () => {
    const read = readPage({ data: [], current_page: 1, per_page: 10, next_page_url: null }, 'listing x');
    expect(read.meta).toEqual({ current_page: 1, per_page: 10 });
    expect(read.next).toBeNull();
    expect(readPage([{ id: 1 }], 'listing x')).toEqual({ data: [{ id: 1 }], meta: {} });
  });

  it('an answer without a data list is unusable, naming the field', () => {
    expect(() => readPage({ items: [] }, 'listing contacts')).toThrow(new UnusableResponseError("the server's answer to listing contacts has no `data` list"));
  });
});

describe('pages and paginate', () => {
  it('walks three pages over HTTP until meta.last_page, 100 a page unless asked', async () => {
    mockAgent = new MockAgent();
    mockAgent.disableNetConnect();
    const pool = mockAgent.get('http://api.test');
    for (const [n, ids] of [[1, [1, 2]], [2, [3, 4]], [3, [5]]] as const) {
      pool
        .intercept({ path: `/api/v3/contacts?page=${n}&per_page=2`, method: 'GET' })
        .reply(200, { data: ids.map((id) => ({ id })), meta: { current_page: n, per_page: 2, total: 5, last_page: 3 }, links: {} });
    }
    const transport = new Transport({ baseUrl: 'http://api.test/api/v3', dispatcher: mockAgent });
    const fetchPage = async (params: PageParams) => readPage<Row>(await transport.request({ method: 'GET', path: '/contacts', query: params }), 'contacts');
    expect(await collect(paginate(fetchPage, { perPage: 2 }))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }]);
    // Every interceptor consumed: exactly three requests, no fourth.
    mockAgent.assertNoPendingInterceptors();
  });

  it('makes one request for a single or empty list, and stops on an empty page whatever last_page says', async () => {
    const asked: PageParams[] = [];
    expect(await collect(paginate(async (p) => (asked.push({ ...p }), page(1, 1, []))))).toEqual([]);
    expect(asked).toEqual([{ page: 1, per_page: undefined }]);
    asked.length = 0;
    const fetchPage = async (p: PageParams) => (asked.push({ ...p }), p.page === 1 ? page(1, 3, [1]) : page(Number(p.page), 3, []));
    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }]);
    expect(asked.map((p) => p.page)).toEqual([1, 2]);
  });

  it('always moves forward when the server misreports current_page', async () => {
    const asked: unknown[] = [];
    const fetchPage = async (p: PageParams) => (asked.push(p.page), page(1, 3, [Number(p.page)]));
    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('without last_page follows links.next, keeping our query where the link leaves it out', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      const n = Number(p.page);
      return page(n, undefined, [n], { next: n < 3 ? `https://elsewhere.example/api/v3/contacts?page=${n + 1}` : null });
    };
    const walked = await collect(pages(fetchPage, { perPage: 50 }));
    expect(walked.flatMap((p) => p.data)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(asked).toEqual([
      { page: 1, per_page: 50 },
      { page: 2, per_page: 50 },
      { page: 3, per_page: 50 },
    ]);
  });

  it('follows a cursor link, and stops when a link comes round again', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      return page(1, undefined, [asked.length], { next: 'https://h/x?cursor=abc' });
    };
    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(asked[1]).toEqual({ page: undefined, per_page: undefined, cursor: 'abc' });
  });

  it('without last_page or links, a short page ends the walk', async () => {
    const asked: unknown[] = [];
    const fetchPage = async (p: PageParams) => (asked.push(p.page), { data: Number(p.page) < 3 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }], meta: {} });
    expect(await collect(paginate(fetchPage, { perPage: 2 }))).toHaveLength(5);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('lowers a per_page the server refuses to the limit its message gives, then walks on at it', async () => {
    const asked: PageParams[] = [];
    const notices: string[] = [];
    const refuse = (text: string) =>
      new UnprocessableEntityError({ status: 422, body: { message: text, errors: { per_page: [text] } }, headers: {}, method: 'GET', url: 'http://h/x' });
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      if (Number(p.per_page) > 50) throw refuse('The per page field must not be greater than 50.');
      return page(Number(p.page), 2, [Number(p.page)]);
    };
    expect(await collect(paginate(fetchPage, { perPage: 100, notice: (line) => notices.push(line) }))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(asked).toEqual([
      { page: 1, per_page: 100 },
      { page: 1, per_page: 50 },
      { page: 2, per_page: 50 },
    ]);
    expect(notices).toEqual(['* the server refused per_page=100; asking per_page=50']);
  });

  it('drops a refused per_page whose limit is not given (a 400 with errors counts), and keeps other validation failures', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      if (p.per_page !== undefined) {
        throw new ValidationFailedError({ status: 400, body: { message: 'Invalid.', errors: { per_page: ['Invalid per page.'] } }, headers: {}, method: 'GET', url: 'http://h/x' });
      }
      return page(1, 1, [1]);
    };
    expect(await collect(paginate(fetchPage, { perPage: 100 }))).toEqual([{ id: 1 }]);
    expect(asked).toEqual([{ page: 1, per_page: 100 }, { page: 1, per_page: undefined }]);

    const other = new UnprocessableEntityError({ status: 422, body: { message: 'Bad search.', errors: { search: ['Too long.'] } }, headers: {}, method: 'GET', url: 'http://h/x' });
    await expect(collect(paginate(async () => Promise.reject(other), { perPage: 100 }))).rejects.toBe(other);
  });

  it('propagates a failing page after yielding the earlier ones', async () => {
    const seen: Row[] = [];
    const fetchPage = async (p: PageParams) => {
      if (p.page === 2) throw new Error('page 2 failed');
      return page(Number(p.page), 3, [Number(p.page)]);
    };
    await expect(
      (async () => {
        for await (const row of paginate(fetchPage)) seen.push(row);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([{ id: 1 }]);
  });
});
