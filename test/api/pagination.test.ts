import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { pages, paginate, type Page } from '../../src/api/pagination.js';
import { Transport } from '../../src/api/transport.js';

interface Contact {
  id: number;
}

function page(current: number, last: number, ids: number[]): Page<Contact> {
  return { data: ids.map((id) => ({ id })), meta: { current_page: current, last_page: last } };
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

describe('paginate', () => {
  it('walks three pages over HTTP until meta.last_page', async () => {
    mockAgent = new MockAgent();
    mockAgent.disableNetConnect();
    const pool = mockAgent.get('http://api.test');
    for (const [n, ids] of [[1, [1, 2]], [2, [3, 4]], [3, [5]]] as const) {
      pool
        .intercept({ path: `/api/v3/contacts?page=${n}&per_page=2`, method: 'GET' })
        .reply(200, { data: ids.map((id) => ({ id })), meta: { current_page: n, per_page: 2, total: 5, last_page: 3 }, links: {} });
    }
    const transport = new Transport({ baseUrl: 'http://api.test/api/v3', dispatcher: mockAgent });
    const fetchPage = (n: number) => transport.request<Page<Contact>>({ method: 'GET', path: '/contacts', query: { page: n, per_page: 2 } });

    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }]);
    // Every interceptor consumed: exactly three requests, no fourth.
    mockAgent.assertNoPendingInterceptors();
  });

  it('starts from startPage and reads exactly one page ahead', async () => {
    const asked: number[] = [];
    const fetchPage = async (n: number) => (asked.push(n), page(n, 6, [n * 10]));
    const early = paginate(fetchPage, 5);
    expect((await early.next()).value).toEqual({ id: 50 });
    // Page 6 is already on its way while the caller handles page 5, and nothing past it.
    expect(asked).toEqual([5, 6]);
    await early.return(undefined);
    asked.length = 0;

    const iterator = paginate(async (n: number) => (asked.push(n), page(n, 4, [n * 10])), 3);
    expect((await iterator.next()).value).toEqual({ id: 30 });
    expect(asked).toEqual([3, 4]);
    expect(await collect(iterator)).toEqual([{ id: 40 }]);
    expect(asked).toEqual([3, 4]);
  });

  it('makes one request for a single or empty list', async () => {
    const asked: number[] = [];
    const fetchPage = async (n: number) => (asked.push(n), page(1, 1, []));
    expect(await collect(paginate(fetchPage))).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('stops on an empty page even when last_page says more (rows deleted meanwhile)', async () => {
    const asked: number[] = [];
    const fetchPage = async (n: number) => (asked.push(n), n === 1 ? page(1, 3, [1]) : page(n, 3, []));
    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }]);
    expect(asked).toEqual([1, 2]);
  });

  it('always moves forward when the server misreports current_page', async () => {
    const asked: number[] = [];
    const fetchPage = async (n: number) => (asked.push(n), page(1, 3, [n]));
    expect(await collect(paginate(fetchPage))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('propagates a failing page after yielding the earlier ones', async () => {
    const seen: Contact[] = [];
    const fetchPage = async (n: number) => {
      if (n === 2) throw new Error('page 2 failed');
      return page(n, 3, [n]);
    };
    await expect(
      (async () => {
        for await (const contact of paginate(fetchPage)) seen.push(contact);
      })(),
    ).rejects.toThrow('page 2 failed');
    expect(seen).toEqual([{ id: 1 }]);
  });
});

describe('pages', () => {
  it('yields each whole page response, extra fields included', async () => {
    const fetchPage = async (n: number) => ({ ...page(n, 3, [n]), links: { next: n < 3 ? `?page=${n + 1}` : null } });
    const all = await collect(pages(fetchPage));
    expect(all.map((p) => p.meta.current_page)).toEqual([1, 2, 3]);
    expect(all[2]?.links.next).toBeNull();
    expect(all.flatMap((p) => p.data)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});
