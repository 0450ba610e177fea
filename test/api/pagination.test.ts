import { describe, expect, it } from 'vitest';
import { UnusableResponseError, UnprocessableEntityError, ValidationFailedError } from '../../src/api/errors.js';
import { walkRows } from '../../src/api/page-engine.js';
import { readPage, type ListPage, type PageParams } from '../../src/api/pagination.js';

interface Row {
  id: number;
}

describe('readPage', () => {
  it("reads the published API's envelope, Laravel's meta with links[] and path, and string numbers", () => {
    const read = readPage<Row>(
      {
        data: [{ id: '1' }],
        meta: { current_page: '2', last_page: 3, per_page: 15, total: '31', path: '/x', links: [{ url: null, label: '1', active: true }] },
        links: { next: 'http://h/x?page=3' },
      },
      'listing x',
    );
    expect(read.meta).toMatchObject({ current_page: 2, last_page: 3, per_page: 15, total: 31, path: '/x' });
    expect(read.next).toBe('http://h/x?page=3');
    expect(read.data).toEqual([{ id: '1' }]);
  });

  it("reads Laravel's bare paginator (meta at the top level, next_page_url) and a bare array", () => {
    const read = readPage({ data: [], current_page: 1, per_page: 10, next_page_url: null }, 'listing x');
    expect(read.meta).toEqual({ current_page: 1, per_page: 10 });
    expect(read.next).toBeNull();
    expect(readPage([{ id: 1 }], 'listing x')).toEqual({ data: [{ id: 1 }], meta: {} });
  });

  it('an answer without a data list is unusable, naming the field', () => {
    expect(() => readPage({ items: [] }, 'listing contacts')).toThrow(
      new UnusableResponseError("the server's answer to listing contacts has no `data` list"),
    );
  });
});

describe('per_page refused by the server (the page engine asks each page)', () => {
  const refuse = (status: number, text: string) =>
    new (status === 422 ? UnprocessableEntityError : ValidationFailedError)({
      status,
      body: { message: text, errors: { per_page: [text] } },
      headers: {},
      method: 'GET',
      url: 'http://h/x',
    });
  const collect = async <T>(rows: AsyncIterable<T>) => {
    const all: T[] = [];
    for await (const row of rows) all.push(row);
    return all;
  };

  it('is lowered to the limit its message gives, and the page asked again', async () => {
    const asked: PageParams[] = [];
    const notices: string[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      if (Number(p.per_page) > 50) throw refuse(422, 'The per page field must not be greater than 50.');
      return { data: [{ id: Number(p.page) }], meta: { current_page: Number(p.page), last_page: 2 } } as ListPage<Row>;
    };
    const rows = await collect(walkRows(fetchPage, { perPage: 100, notice: (line: string) => notices.push(line) }));
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
    // The page after it asks the lowered per_page at once.
    expect(asked).toEqual([
      { page: 1, per_page: 100 },
      { page: 1, per_page: 50 },
      { page: 2, per_page: 50 },
    ]);
    expect(notices).toEqual(['* the server refused per_page=100; asking per_page=50']);
  });

  it('is dropped when no limit is given (a 400 with errors counts); other validation failures stand', async () => {
    const asked: PageParams[] = [];
    const fetchPage = async (p: PageParams) => {
      asked.push({ ...p });
      if (p.per_page !== undefined) throw refuse(400, 'Invalid per page.');
      return { data: [], meta: {} } as ListPage<Row>;
    };
    const notices: string[] = [];
    await collect(walkRows(fetchPage, { perPage: 100, notice: (line: string) => notices.push(line) }));
    expect(asked).toEqual([
      { page: 1, per_page: 100 },
      { page: 1, per_page: undefined },
    ]);
    expect(notices).toEqual(['* the server refused per_page=100; asking its default page size']);
    const other = new UnprocessableEntityError({
      status: 422,
      body: { message: 'Bad search.', errors: { search: ['Too long.'] } },
      headers: {},
      method: 'GET',
      url: 'http://h/x',
    });
    await expect(collect(walkRows(async () => Promise.reject(other), { perPage: 100 }))).rejects.toBe(other);
  });
});
